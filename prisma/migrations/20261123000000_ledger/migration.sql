-- The membership ledger (docs/decisions/0008-membership-ledger.md): one entitlement per paid
-- source, Cohort's subscriptions, every Stripe customer of a user, sign-in merges, deleted ids and
-- the actions owed to Stripe. Existing payments become entitlements; the membership row stays as
-- the derived summary.

-- CreateEnum
CREATE TYPE "entitlement_source" AS ENUM ('one-time', 'subscription-invoice', 'comp');

-- CreateEnum
CREATE TYPE "entitlement_state" AS ENUM ('active', 'suspended', 'refunded', 'revoked');

-- CreateTable
CREATE TABLE "entitlements" (
    "id" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "source" "entitlement_source" NOT NULL,
    "paymentIntentId" TEXT,
    "subscriptionId" TEXT,
    "amountCents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "paidAt" TIMESTAMPTZ(3) NOT NULL,
    "periodStart" TIMESTAMPTZ(3),
    "periodEnd" TIMESTAMPTZ(3),
    "days" INTEGER,
    "state" "entitlement_state" NOT NULL,
    "stateReason" TEXT,
    "stateReadAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "entitlements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "customerId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "stripeCreatedAt" TIMESTAMPTZ(3) NOT NULL,
    "syncedAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stripe_customers" (
    "id" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stripe_customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_merges" (
    "fromUserId" UUID NOT NULL,
    "toUserId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_merges_pkey" PRIMARY KEY ("fromUserId")
);

-- CreateTable
CREATE TABLE "deleted_users" (
    "id" UUID NOT NULL,
    "deletedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deleted_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stripe_actions" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "doneAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stripe_actions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "entitlements_paymentIntentId_key" ON "entitlements"("paymentIntentId");

-- CreateIndex
CREATE INDEX "entitlements_userId_idx" ON "entitlements"("userId");

-- CreateIndex
CREATE INDEX "entitlements_subscriptionId_idx" ON "entitlements"("subscriptionId");

-- CreateIndex
CREATE INDEX "subscriptions_userId_idx" ON "subscriptions"("userId");

-- CreateIndex
CREATE INDEX "subscriptions_customerId_idx" ON "subscriptions"("customerId");

-- CreateIndex
CREATE INDEX "stripe_customers_userId_idx" ON "stripe_customers"("userId");

-- CreateIndex
CREATE INDEX "user_merges_toUserId_idx" ON "user_merges"("toUserId");

-- CreateIndex
CREATE UNIQUE INDEX "stripe_actions_kind_target_key" ON "stripe_actions"("kind", "target");

-- AddForeignKey
ALTER TABLE "entitlements" ADD CONSTRAINT "entitlements_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stripe_customers" ADD CONSTRAINT "stripe_customers_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_merges" ADD CONSTRAINT "user_merges_toUserId_fkey" FOREIGN KEY ("toUserId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Data: what the single-row model knew, carried into the ledger.
INSERT INTO "stripe_customers" ("id", "userId")
SELECT "stripeCustomerId", "id" FROM "users" WHERE "stripeCustomerId" IS NOT NULL;

INSERT INTO "subscriptions" ("id", "userId", "customerId", "status", "stripeCreatedAt", "syncedAt", "updatedAt")
SELECT m."stripeSubscriptionId", m."userId", u."stripeCustomerId",
       CASE WHEN m.status = 'refunded' THEN 'canceled' ELSE m.status END,
       m."createdAt", COALESCE(m."stripeSyncedAt", m."updatedAt"), now()
FROM "memberships" m JOIN "users" u ON u.id = m."userId"
WHERE m."stripeSubscriptionId" IS NOT NULL AND u."stripeCustomerId" IS NOT NULL;

INSERT INTO "entitlements" ("id", "userId", "source", "paymentIntentId", "subscriptionId", "amountCents",
    "currency", "paidAt", "periodStart", "periodEnd", "days", "state", "stateReason", "stateReadAt", "updatedAt")
SELECT p.id, p."userId",
       CASE WHEN p.plan = 'one-time' THEN 'one-time' ELSE 'subscription-invoice' END::"entitlement_source",
       CASE WHEN p.plan = 'one-time' THEN p.id END,
       CASE WHEN p.plan = 'subscription' THEN m."stripeSubscriptionId" END,
       p."amountCents", p.currency, p."createdAt",
       CASE WHEN p.plan = 'subscription' THEN p."createdAt" END,
       CASE WHEN p.plan = 'subscription' THEN p."createdAt" + interval '1 year' END,
       CASE WHEN p.plan = 'one-time' THEN 365 END,
       CASE WHEN p."refundedAt" IS NOT NULL OR (p.plan = 'subscription' AND m.status = 'refunded')
            THEN 'refunded' ELSE 'active' END::"entitlement_state",
       CASE WHEN p."refundedAt" IS NOT NULL OR (p.plan = 'subscription' AND m.status = 'refunded')
            THEN 'refund' END,
       COALESCE(p."refundedAt", p."createdAt"), now()
FROM "payments" p LEFT JOIN "memberships" m ON m."userId" = p."userId";

-- DropTable
DROP TABLE "payments";

-- DropIndex
DROP INDEX "memberships_stripeSubscriptionId_key";

-- AlterTable
ALTER TABLE "memberships" DROP COLUMN "stripeSubscriptionId",
DROP COLUMN "stripeSyncedAt";

-- DropIndex
DROP INDEX "users_stripeCustomerId_key";

-- AlterTable
ALTER TABLE "users" DROP COLUMN "stripeCustomerId";
