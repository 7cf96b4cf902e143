-- Authors without an account (docs/migrating.md): a post imported from another platform keeps its
-- authors, who get a profile and an /authors/<slug> page whether or not they are staff here. A
-- profile has an id of its own; a staff member's is tied to their user (`userId`, their name the
-- user's own), an imported author's has none and keeps the name the export gave (`name`).
-- A post's authors name profiles (`authorId`); `userId` stays beside it, the staff member the
-- profile is (null for an imported author), for the queries that look for a user's posts.
ALTER TABLE "author_profiles" ADD COLUMN "id" UUID NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE "author_profiles" ADD COLUMN "name" TEXT NOT NULL DEFAULT '';
ALTER TABLE "author_profiles" DROP CONSTRAINT "author_profiles_pkey";
ALTER TABLE "author_profiles" ADD CONSTRAINT "author_profiles_pkey" PRIMARY KEY ("id");
ALTER TABLE "author_profiles" ALTER COLUMN "userId" DROP NOT NULL;
CREATE UNIQUE INDEX "author_profiles_userId_key" ON "author_profiles"("userId");

ALTER TABLE "post_authors" ADD COLUMN "authorId" UUID;
UPDATE "post_authors" a SET "authorId" = p."id" FROM "author_profiles" p WHERE p."userId" = a."userId";
-- Every author of a post has had a profile since authors began; a row without one has no byline.
DELETE FROM "post_authors" WHERE "authorId" IS NULL;
ALTER TABLE "post_authors" ALTER COLUMN "authorId" SET NOT NULL;
ALTER TABLE "post_authors" DROP CONSTRAINT "post_authors_pkey";
ALTER TABLE "post_authors" ALTER COLUMN "userId" DROP NOT NULL;
ALTER TABLE "post_authors" ADD CONSTRAINT "post_authors_pkey" PRIMARY KEY ("postId", "authorId");
CREATE INDEX "post_authors_authorId_idx" ON "post_authors"("authorId");
ALTER TABLE "post_authors" ADD CONSTRAINT "post_authors_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "author_profiles"("id") ON DELETE CASCADE ON UPDATE CASCADE;
