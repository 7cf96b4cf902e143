-- Authors (issue 41): a staff member's public profile, and who wrote each post. A profile's name is
-- the user's own (`users.name`). The shipped posts are credited to nobody: their pages carry no
-- byline until an editor names their authors.
CREATE TABLE "author_profiles" (
    "userId" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "bio" TEXT NOT NULL DEFAULT '',
    "picture" TEXT,
    "links" JSONB NOT NULL DEFAULT '[]',
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "author_profiles_pkey" PRIMARY KEY ("userId")
);

CREATE UNIQUE INDEX "author_profiles_slug_key" ON "author_profiles"("slug");

ALTER TABLE "author_profiles" ADD CONSTRAINT "author_profiles_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "post_authors" (
    "postId" INTEGER NOT NULL,
    "userId" UUID NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "post_authors_pkey" PRIMARY KEY ("postId","userId")
);

CREATE INDEX "post_authors_userId_idx" ON "post_authors"("userId");

ALTER TABLE "post_authors" ADD CONSTRAINT "post_authors_postId_fkey" FOREIGN KEY ("postId") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "post_authors" ADD CONSTRAINT "post_authors_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
