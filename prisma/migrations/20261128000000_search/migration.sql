-- Search (issue 29): every post's words, weighted, kept up to date by PostgreSQL itself. The title
-- weighs most (A), then the summary, reason or description (B), then the body (C), then the
-- kind's other text fields (D: a boycott's alternative and updates, a resource list's entries,
-- a post's tags). A members-only post's body is never in it: it is found by its title and
-- summary alone, so nothing of its body can reach a visitor through a search.
ALTER TABLE "posts" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, "title"), 'A') ||
  setweight(to_tsvector('english'::regconfig,
    COALESCE("fields"->>'summary', "fields"->>'reason', "fields"->>'description', '')), 'B') ||
  setweight(to_tsvector('english'::regconfig,
    CASE WHEN "visibility" = 'public' THEN "body" ELSE '' END), 'C') ||
  setweight(jsonb_to_tsvector('english'::regconfig,
    "fields" - ARRAY['summary', 'reason', 'description', 'category', 'articles', 'externalLink',
      'updatedAt', 'boycottStatus'],
    '["string"]'), 'D')
) STORED;

CREATE INDEX "posts_searchVector_idx" ON "posts" USING GIN ("searchVector");

-- What results are ranked by: the title (A) and the summary (B) alone. Small enough to stay in
-- the row, so ranking the thousands of posts a common word matches reads no body's words.
ALTER TABLE "posts" ADD COLUMN "rankVector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, "title"), 'A') ||
  setweight(to_tsvector('english'::regconfig,
    COALESCE("fields"->>'summary', "fields"->>'reason', "fields"->>'description', '')), 'B')
) STORED;

-- The words of what is published, as written (not stemmed): what a misspelt word is matched
-- against, nearest first by pg_trgm's distance (installed by 20261124100000_desk; a GiST index
-- walks words in that order), and what the last word typed is completed from (a pattern index for
-- LIKE 'prefix%'). Filled by the app as posts change; a word left from a post taken down only
-- offers a spelling that finds nothing.
CREATE TABLE "search_words" (
    "word" TEXT NOT NULL,

    CONSTRAINT "search_words_pkey" PRIMARY KEY ("word")
);

CREATE INDEX "search_words_trgm_idx" ON "search_words" USING GIST ("word" gist_trgm_ops);
CREATE INDEX "search_words_prefix_idx" ON "search_words" ("word" text_pattern_ops);
