-- Podcasts (contract/podcasts.ts): a section of articles may be one. Its `podcast` says who makes
-- it, its category in Apple's list, whether it is explicit, its cover and the owner's address (a
-- JSON object the section store checks); null: the section is no podcast.
ALTER TABLE "sections" ADD COLUMN "podcast" JSONB;

-- Each member's private feed of a podcast (`/feeds/<token>.xml`): its episodes for members too. The
-- token is the address's secret, made when the member first asks and replaced when they ask for a
-- new address; the feed answers only while its member is one (server/src/podcasts/).
CREATE TABLE "podcast_feed_tokens" (
    "userId" UUID NOT NULL,
    "sectionId" INTEGER NOT NULL,
    "token" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "podcast_feed_tokens_pkey" PRIMARY KEY ("userId","sectionId")
);

CREATE UNIQUE INDEX "podcast_feed_tokens_token_key" ON "podcast_feed_tokens"("token");

CREATE INDEX "podcast_feed_tokens_sectionId_idx" ON "podcast_feed_tokens"("sectionId");

ALTER TABLE "podcast_feed_tokens" ADD CONSTRAINT "podcast_feed_tokens_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "podcast_feed_tokens" ADD CONSTRAINT "podcast_feed_tokens_sectionId_fkey" FOREIGN KEY ("sectionId") REFERENCES "sections"("id") ON DELETE CASCADE ON UPDATE CASCADE;
