-- The tier a Price members paid on the old platform gives here (`--price <id>=<tier>/<plan>`): its
-- subscriptions' periods are that tier's. Every mapping made before tiers gave the first tier.
-- A tier deleted takes its mappings with it: nobody held it, and its Price grants nothing after.
ALTER TABLE "imported_prices" ADD COLUMN "tierId" INTEGER NOT NULL DEFAULT 1;

ALTER TABLE "imported_prices" ADD CONSTRAINT "imported_prices_tierId_fkey" FOREIGN KEY ("tierId") REFERENCES "tiers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
