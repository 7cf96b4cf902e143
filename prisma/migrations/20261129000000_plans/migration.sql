-- What is on sale (issue 28): the one-time year, the monthly and the yearly subscription, each on
-- or off, priced and given a free trial (or none) by owners in the desk. Rows are made at the first
-- start from the environment (MEMBERSHIP_PRICE_CENTS, MONTHLY_PRICE_CENTS, MEMBERSHIP_CURRENCY);
-- the desk changes them after.
CREATE TABLE "plans" (
    "id" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "stripePriceId" TEXT,
    "trialDays" INTEGER NOT NULL DEFAULT 0,
    "trialNeedsCard" BOOLEAN NOT NULL DEFAULT true,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedBy" UUID,

    CONSTRAINT "plans_pkey" PRIMARY KEY ("id")
);

-- A subscription's billing interval (month or year), as Stripe's Price says. Every Cohort Price
-- before plans was yearly.
ALTER TABLE "subscriptions" ADD COLUMN "interval" TEXT;
UPDATE "subscriptions" SET "interval" = 'year';
-- Its Price and that Price's amount: who subscribed at a price the desk has changed since.
ALTER TABLE "subscriptions" ADD COLUMN "priceId" TEXT;
ALTER TABLE "subscriptions" ADD COLUMN "amountCents" INTEGER;

-- A free trial's period on the ledger: access, marked as a trial (a $0 invoice Stripe made for it).
ALTER TABLE "entitlements" ADD COLUMN "trial" BOOLEAN NOT NULL DEFAULT false;
-- The address of the account that took the trial, then: one trial per address, even after the
-- account moves to another one.
ALTER TABLE "entitlements" ADD COLUMN "trialEmail" TEXT;

-- Offers (issue 28): a code (and a link, /join?offer=CODE) taking a percent or an amount off chosen
-- plans, once, for some months or for ever, until a date or a number of redemptions. A
-- subscription's is a Stripe Coupon with a Promotion Code; the year paid once is priced here.
CREATE TABLE "offers" (
    "id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "percentOff" INTEGER,
    "amountOffCents" INTEGER,
    "currency" TEXT NOT NULL,
    "duration" TEXT NOT NULL,
    "durationMonths" INTEGER,
    "plans" TEXT[] NOT NULL,
    "endsAt" TIMESTAMPTZ(3),
    "maxRedemptions" INTEGER,
    "endedAt" TIMESTAMPTZ(3),
    "stripeCouponId" TEXT,
    "stripePromotionCodeId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" UUID,

    CONSTRAINT "offers_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "offers_code_key" ON "offers"("code");

-- The offer a payment redeemed.
ALTER TABLE "entitlements" ADD COLUMN "offerId" UUID;
CREATE INDEX "entitlements_offerId_idx" ON "entitlements"("offerId");
