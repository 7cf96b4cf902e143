-- The publisher's desk (/desk): when a session signed in, comps on the ledger, which users each
-- Stripe event concerns and what came of it, the audit log of staff changes, and the indexes of
-- the members list.

-- Trigram search for any part of an email (a trusted extension: the database owner may create it).
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- Sessions: when the password was typed. Existing sessions keep NULL (unknown): staff sign in
-- once more before their first change.
ALTER TABLE "sessions" ADD COLUMN "signedInAt" TIMESTAMPTZ(3);

-- Comps: why, and who granted them.
ALTER TABLE "entitlements" ADD COLUMN "compReason" TEXT,
ADD COLUMN "grantedBy" UUID;

CREATE INDEX "entitlements_paidAt_idx" ON "entitlements"("paidAt");

-- Stripe events: the object they name and what the ledger did with them.
ALTER TABLE "stripe_events" ADD COLUMN "objectId" TEXT,
ADD COLUMN "outcome" TEXT,
ADD COLUMN "notes" TEXT;

CREATE TABLE "stripe_event_users" (
    "eventId" TEXT NOT NULL,
    "userId" UUID NOT NULL,

    CONSTRAINT "stripe_event_users_pkey" PRIMARY KEY ("eventId","userId")
);

CREATE INDEX "stripe_event_users_userId_idx" ON "stripe_event_users"("userId");

ALTER TABLE "stripe_event_users" ADD CONSTRAINT "stripe_event_users_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "stripe_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "stripe_event_users" ADD CONSTRAINT "stripe_event_users_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The audit log: written by the desk, never changed.
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "actorId" UUID NOT NULL,
    "actorEmail" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "targetUserId" UUID,
    "before" JSONB,
    "after" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "audit_log_targetUserId_id_idx" ON "audit_log"("targetUserId", "id");

-- The members list: newest first, one page after another.
CREATE INDEX "users_createdAt_id_idx" ON "users"("createdAt", "id");

-- Any part of an email (ILIKE '%…%'), by trigrams.
CREATE INDEX "users_email_trgm_idx" ON "users" USING GIN ("email" gin_trgm_ops);
