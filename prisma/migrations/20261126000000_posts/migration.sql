-- Posts: the site's editorial content in the database, published at run time (decision 16), with
-- every earlier version, earlier slugs (301s), and the shipped files already imported once.

CREATE TABLE "posts" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "visibility" TEXT NOT NULL DEFAULT 'public',
    "title" TEXT NOT NULL,
    "fields" JSONB NOT NULL DEFAULT '{}',
    "body" TEXT NOT NULL DEFAULT '',
    "publishedAt" TIMESTAMPTZ(3),
    "featureImage" TEXT,
    "featureImageAlt" TEXT,
    "seoTitle" TEXT,
    "seoDescription" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "unpublishedAt" TIMESTAMPTZ(3),
    "submittedAt" TIMESTAMPTZ(3),
    "deletedAt" TIMESTAMPTZ(3),
    "createdBy" UUID,
    "updatedBy" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "posts_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "posts_kind_slug_key" ON "posts"("kind", "slug");

CREATE INDEX "posts_status_publishedAt_idx" ON "posts"("status", "publishedAt");

CREATE TABLE "post_revisions" (
    "id" BIGSERIAL NOT NULL,
    "postId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "snapshot" JSONB NOT NULL,
    "savedBy" UUID,
    "savedByEmail" TEXT,
    "savedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "post_revisions_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "post_revisions_postId_version_key" ON "post_revisions"("postId", "version");

ALTER TABLE "post_revisions" ADD CONSTRAINT "post_revisions_postId_fkey" FOREIGN KEY ("postId") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "post_paths" (
    "path" TEXT NOT NULL,
    "postId" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "post_paths_pkey" PRIMARY KEY ("path")
);

CREATE INDEX "post_paths_postId_idx" ON "post_paths"("postId");

ALTER TABLE "post_paths" ADD CONSTRAINT "post_paths_postId_fkey" FOREIGN KEY ("postId") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "content_seeds" (
    "kind" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "importedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "content_seeds_pkey" PRIMARY KEY ("kind", "slug")
);
