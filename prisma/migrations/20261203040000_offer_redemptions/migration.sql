-- A redemption of an offer held for one checkout (a PaymentIntent, a Checkout Session) while the
-- reader pays: pending reservations count against the offer's limit with the redemptions paid, so
-- checkouts at the same time cannot pass it. Paid, it is redeemed; abandoned, it is released.
CREATE TABLE "offer_redemptions" (
    "id" UUID NOT NULL,
    "offerId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "plan" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "stripeId" TEXT,
    "state" TEXT NOT NULL,
    "holdUntil" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settledAt" TIMESTAMPTZ(3),

    CONSTRAINT "offer_redemptions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "offer_redemptions_stripeId_key" ON "offer_redemptions"("stripeId");
CREATE INDEX "offer_redemptions_offerId_state_idx" ON "offer_redemptions"("offerId", "state");
CREATE INDEX "offer_redemptions_state_holdUntil_idx" ON "offer_redemptions"("state", "holdUntil");
ALTER TABLE "offer_redemptions" ADD CONSTRAINT "offer_redemptions_offerId_fkey" FOREIGN KEY ("offerId") REFERENCES "offers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
