-- The Trash (docs/desk.md): a deleted post keeps the status it had, so that restoring it brings it
-- back as it was (server/src/content/post-trash.ts); purged for good 30 days after "deletedAt".
ALTER TABLE "posts" ADD COLUMN "deletedStatus" TEXT;
