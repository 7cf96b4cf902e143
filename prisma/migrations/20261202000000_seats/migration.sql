-- Solidarity seats (issue 28): supporters fund years for readers who cannot pay; readers ask for
-- one with a note; owners grant requests (or a number a month is granted on its own, first come
-- first served). A granted seat is a ledger period of its own (source "sponsored").
ALTER TYPE "entitlement_source" ADD VALUE 'sponsored';

-- A supporter's payment for N seats, made from the paid PaymentIntent's metadata (an abandoned
-- payment leaves nothing). A refund or a lost dispute takes back only its seats not yet granted.
CREATE TABLE "seat_fundings" (
    "id" UUID NOT NULL,
    "paymentIntentId" TEXT NOT NULL,
    "supporterUserId" UUID NOT NULL,
    "supporterEmail" TEXT,
    "seats" INTEGER NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "paidAt" TIMESTAMPTZ(3) NOT NULL,
    "state" "entitlement_state" NOT NULL,
    "stateReason" TEXT,
    "stateReadAt" TIMESTAMPTZ(3) NOT NULL,
    "receiptSentAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "seat_fundings_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "seat_fundings_paymentIntentId_key" ON "seat_fundings"("paymentIntentId");
CREATE INDEX "seat_fundings_supporterUserId_idx" ON "seat_fundings"("supporterUserId");

-- A reader's request for a seat: open, then granted (from a funding), declined or withdrawn.
CREATE TABLE "seat_requests" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "note" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" TIMESTAMPTZ(3),
    "decidedBy" UUID,
    "fundingId" UUID,
    "notifiedAt" TIMESTAMPTZ(3),

    CONSTRAINT "seat_requests_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "seat_requests_state_createdAt_idx" ON "seat_requests"("state", "createdAt");
CREATE INDEX "seat_requests_userId_idx" ON "seat_requests"("userId");
CREATE INDEX "seat_requests_fundingId_idx" ON "seat_requests"("fundingId");
ALTER TABLE "seat_requests" ADD CONSTRAINT "seat_requests_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The pool's one setting: how many open requests are granted on their own each calendar month.
CREATE TABLE "seat_pool" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "autoGrantPerMonth" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedBy" UUID,

    CONSTRAINT "seat_pool_pkey" PRIMARY KEY ("id")
);
