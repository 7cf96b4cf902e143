-- Who a newsletter issue is sent to (contract/newsletters.ts `NEWSLETTER_AUDIENCES`): everyone
-- subscribed, those without paid access, paying members, or the members of chosen tiers. Kept
-- with the send, so a send started again (after a stop or a crash) queues the same audience.
-- Issues sent before were sent to everyone, or to paying members for a members-only issue: they
-- have no row, and a send started again takes what it took before.
CREATE TYPE "newsletter_audience" AS ENUM ('all', 'free', 'paid', 'tiers');

CREATE TABLE "newsletter_sends" (
    "issueSlug" TEXT NOT NULL,
    "audience" "newsletter_audience" NOT NULL,
    "tierIds" INTEGER[] NOT NULL DEFAULT ARRAY[]::INTEGER[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "newsletter_sends_pkey" PRIMARY KEY ("issueSlug")
);
