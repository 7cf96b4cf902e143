-- The newsletter: double opt-in subscribers (linked to a user when the address is theirs) and one
-- delivery record per issue and subscriber. The job queue (pg-boss) keeps its own schema, pgboss.
CREATE TYPE "newsletter_state" AS ENUM ('pending', 'confirmed', 'unsubscribed', 'bouncing');

CREATE TYPE "newsletter_delivery_state" AS ENUM ('queued', 'sent', 'failed', 'skipped');

CREATE TABLE "newsletter_subscribers" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "userId" UUID,
    "state" "newsletter_state" NOT NULL,
    "confirmTokenHash" TEXT,
    "confirmExpiresAt" TIMESTAMPTZ(3),
    "confirmMailedAt" TIMESTAMPTZ(3),
    "confirmedAt" TIMESTAMPTZ(3),
    "unsubscribedAt" TIMESTAMPTZ(3),
    "permanentFailures" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "newsletter_subscribers_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "newsletter_deliveries" (
    "id" UUID NOT NULL,
    "issueSlug" TEXT NOT NULL,
    "subscriberId" UUID NOT NULL,
    "state" "newsletter_delivery_state" NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "sentAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "newsletter_deliveries_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "newsletter_subscribers_email_key" ON "newsletter_subscribers"("email");

CREATE UNIQUE INDEX "newsletter_subscribers_userId_key" ON "newsletter_subscribers"("userId");

CREATE UNIQUE INDEX "newsletter_subscribers_confirmTokenHash_key" ON "newsletter_subscribers"("confirmTokenHash");

-- Counts by state, and the sweep of unconfirmed sign-ups past their 7 days.
CREATE INDEX "newsletter_subscribers_state_confirmExpiresAt_idx" ON "newsletter_subscribers"("state", "confirmExpiresAt");

CREATE UNIQUE INDEX "newsletter_deliveries_issueSlug_subscriberId_key" ON "newsletter_deliveries"("issueSlug", "subscriberId");

CREATE INDEX "newsletter_deliveries_issueSlug_state_idx" ON "newsletter_deliveries"("issueSlug", "state");

CREATE INDEX "newsletter_deliveries_subscriberId_idx" ON "newsletter_deliveries"("subscriberId");

ALTER TABLE "newsletter_subscribers" ADD CONSTRAINT "newsletter_subscribers_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "newsletter_deliveries" ADD CONSTRAINT "newsletter_deliveries_subscriberId_fkey" FOREIGN KEY ("subscriberId") REFERENCES "newsletter_subscribers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
