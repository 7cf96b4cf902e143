-- Search finds a members-only post by the words of its public opening too (issue 41): the part of
-- its body before the divider line (`<!-- members-only -->`, contract/posts.ts splitAtDivider),
-- which every visitor reads anyway. Nothing after the divider is in it, and a members-only post
-- without a divider has no opening: found by its title and summary alone, as before.
-- The 'w' option: ^ and $ match at each line's ends, and . matches a newline.
ALTER TABLE "posts" DROP COLUMN "searchVector";

ALTER TABLE "posts" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, "title"), 'A') ||
  setweight(to_tsvector('english'::regconfig,
    COALESCE("fields"->>'summary', "fields"->>'reason', "fields"->>'description', '')), 'B') ||
  setweight(to_tsvector('english'::regconfig,
    CASE
      WHEN "visibility" = 'public' THEN "body"
      WHEN "body" ~ '(?w)^[ \t]*<!--\s*members-only\s*-->[ \t]*$'
        THEN regexp_replace("body", '(?w)^[ \t]*<!--\s*members-only\s*-->[ \t]*$.*', '')
      ELSE ''
    END), 'C') ||
  setweight(jsonb_to_tsvector('english'::regconfig,
    "fields" - ARRAY['summary', 'reason', 'description', 'category', 'articles', 'externalLink',
      'updatedAt', 'boycottStatus'],
    '["string"]'), 'D')
) STORED;

CREATE INDEX "posts_searchVector_idx" ON "posts" USING GIN ("searchVector");
