-- A colour for each section (docs/publishing.md, "Sections and the menu"): one of the palette in
-- contract/sections.ts, each readable as text on the site's white and paper. The shipped sections
-- keep the colours they had; a section added before this takes the palette's next free colour
-- (instead of Wealth's blue, which they all shared).
ALTER TABLE "sections" ADD COLUMN "color" TEXT NOT NULL DEFAULT '#1f4fd1';

UPDATE "sections" SET "color" = CASE
    WHEN "lists" = 'campaigns' THEN '#b23a22'
    WHEN "lists" = 'boycotts' THEN '#6b3fa0'
    WHEN "lists" = 'resources' THEN '#0d6a8a'
    WHEN "slug" = 'health' THEN '#0f6b52'
    ELSE '#1f4fd1'
  END;

WITH "added" AS (
  SELECT "id", row_number() OVER (ORDER BY "position", "id") AS n
    FROM "sections"
    WHERE "lists" = 'articles' AND "slug" NOT IN ('health', 'wealth')
)
UPDATE "sections" s
  SET "color" = (ARRAY['#a3245f', '#8a5a00', '#4d6b16', '#7a4e2d', '#555b6e'])[((a.n - 1) % 5) + 1]
  FROM "added" a
  WHERE s."id" = a."id";
