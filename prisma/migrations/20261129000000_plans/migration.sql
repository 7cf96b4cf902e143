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
