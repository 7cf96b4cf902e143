-- Comments refused before they were written (nested too deep to draw: docs/comments.md#abuse),
-- a row each, so that they count against the account's pace as written ones do. Nothing of the
-- comment is kept; an account's rows older than a day are removed as new ones come.
CREATE TABLE "comment_refusals" (
    "id" BIGSERIAL NOT NULL,
    "userId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comment_refusals_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "comment_refusals_userId_createdAt_idx" ON "comment_refusals"("userId", "createdAt");

ALTER TABLE "comment_refusals" ADD CONSTRAINT "comment_refusals_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
