-- When Stripe ended a subscription (`ended_at`): a canceled subscription's paid period counts
-- until then, so the membership's end date is the same however often the ledger is recomputed.
ALTER TABLE "subscriptions" ADD COLUMN "endedAt" TIMESTAMPTZ(3);
