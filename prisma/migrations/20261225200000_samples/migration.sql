-- The sample content (issue 52): what a new site's first start loads from content/ is marked as a
-- sample, so that SAMPLE_CONTENT=off can start without it and the desk's "Remove the sample
-- content" takes out exactly that (server/src/content/sample-content.ts).
ALTER TABLE "posts" ADD COLUMN "sample" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "sections" ADD COLUMN "sample" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "site_links" ADD COLUMN "sample" BOOLEAN NOT NULL DEFAULT false;

-- Whether the site has its samples (`loaded`): the shipped partner perks marked `sample: true`
-- are shown only then, and the shipped content/ is imported only then. One row, made by the first
-- start (SAMPLE_CONTENT decides), or here for a site that imported the shipped content before.
CREATE TABLE "site_samples" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "loaded" BOOLEAN NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "site_samples_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "site_samples_one_row" CHECK ("id" = 1)
);

-- A site that ran before: the posts its start imported from content/ (staff made none of them),
-- the five shipped sections (by their slugs then or now) and the footer's links to the shipped
-- topic pages are its samples.
INSERT INTO "site_samples" ("id", "loaded")
  SELECT 1, true WHERE EXISTS (SELECT 1 FROM "content_seeds");

UPDATE "posts" AS p SET "sample" = true
  FROM "content_seeds" AS s
  WHERE p."kind" = s."kind" AND p."slug" = s."slug" AND p."createdBy" IS NULL;

UPDATE "sections" SET "sample" = true
  WHERE "slug" IN ('health', 'wealth', 'direct-action', 'collective', 'empowerment')
     OR "id" IN (SELECT "sectionId" FROM "section_slugs"
                  WHERE "slug" IN ('health', 'wealth', 'direct-action', 'collective', 'empowerment'));

UPDATE "site_links" SET "sample" = true
  WHERE "placement" = 'footer'
    AND "address" IN ('/home-buying', '/student-debt-relief', '/work-and-jobs', '/media',
                      '/legal-resources');
