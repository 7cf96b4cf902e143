-- Gifts (issue 28): a year bought for someone else, paid once. The row is made from the paid
-- PaymentIntent's metadata (an abandoned payment leaves nothing behind); the recipient is mailed a
-- claim link at the send date; claiming puts a ledger period of its own (source "gift") on their
-- account, stacked after the time they hold.
ALTER TYPE "entitlement_source" ADD VALUE 'gift';

CREATE TABLE "gifts" (
    "id" UUID NOT NULL,
    "paymentIntentId" TEXT NOT NULL,
    "buyerUserId" UUID NOT NULL,
    "buyerEmail" TEXT,
    "fromName" TEXT,
    "recipientEmail" TEXT NOT NULL,
    "message" TEXT,
    "sendAt" TIMESTAMPTZ(3) NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "paidAt" TIMESTAMPTZ(3) NOT NULL,
    "state" "entitlement_state" NOT NULL,
    "stateReason" TEXT,
    "stateReadAt" TIMESTAMPTZ(3) NOT NULL,
    "tokenHash" TEXT,
    "sentAt" TIMESTAMPTZ(3),
    "sentTo" TEXT,
    "receiptSentAt" TIMESTAMPTZ(3),
    "claimedAt" TIMESTAMPTZ(3),
    "claimedBy" UUID,
    "claimNoticeSentAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "gifts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "gifts_paymentIntentId_key" ON "gifts"("paymentIntentId");
CREATE UNIQUE INDEX "gifts_tokenHash_key" ON "gifts"("tokenHash");
CREATE INDEX "gifts_buyerUserId_idx" ON "gifts"("buyerUserId");
-- The mail sweep: gifts not yet sent, by send date.
CREATE INDEX "gifts_sendAt_idx" ON "gifts"("sendAt");
