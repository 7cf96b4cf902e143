-- Comments under posts (docs/comments.md): members write them, replies one level deep, staff
-- moderate them from the desk. See server/src/comments/.

-- A comment, or a reply (parentId: the top comment of its thread). An imported guest's comment has
-- no account (userId null) and its guest's name; an account's comment is named by the account.
CREATE TABLE "comments" (
    "id" UUID NOT NULL,
    "postId" INTEGER NOT NULL,
    "parentId" UUID,
    "userId" UUID,
    "guestName" TEXT,
    "body" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'visible',
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "likes" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "editedAt" TIMESTAMPTZ(3),
    "deletedAt" TIMESTAMPTZ(3),
    "moderatedAt" TIMESTAMPTZ(3),
    "importSource" TEXT,

    CONSTRAINT "comments_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "comments_importSource_key" ON "comments"("importSource");
CREATE INDEX "comments_postId_parentId_createdAt_id_idx" ON "comments"("postId", "parentId", "createdAt", "id");
CREATE INDEX "comments_postId_parentId_likes_createdAt_id_idx" ON "comments"("postId", "parentId", "likes", "createdAt", "id");
CREATE INDEX "comments_userId_createdAt_idx" ON "comments"("userId", "createdAt");
CREATE INDEX "comments_createdAt_id_idx" ON "comments"("createdAt", "id");
CREATE INDEX "comments_parentId_idx" ON "comments"("parentId");
ALTER TABLE "comments" ADD CONSTRAINT "comments_postId_fkey" FOREIGN KEY ("postId") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "comments" ADD CONSTRAINT "comments_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "comments" ADD CONSTRAINT "comments_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- One like per account per comment.
CREATE TABLE "comment_likes" (
    "commentId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comment_likes_pkey" PRIMARY KEY ("commentId", "userId")
);
CREATE INDEX "comment_likes_userId_idx" ON "comment_likes"("userId");
ALTER TABLE "comment_likes" ADD CONSTRAINT "comment_likes_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "comment_likes" ADD CONSTRAINT "comment_likes_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A reader's report of a comment, with their reason; one per reader per comment (the last reason).
CREATE TABLE "comment_reports" (
    "commentId" UUID NOT NULL,
    "reporterId" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comment_reports_pkey" PRIMARY KEY ("commentId", "reporterId")
);
CREATE INDEX "comment_reports_createdAt_idx" ON "comment_reports"("createdAt");
CREATE INDEX "comment_reports_reporterId_idx" ON "comment_reports"("reporterId");
ALTER TABLE "comment_reports" ADD CONSTRAINT "comment_reports_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "comment_reports" ADD CONSTRAINT "comment_reports_reporterId_fkey" FOREIGN KEY ("reporterId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Accounts the publisher blocked from commenting.
CREATE TABLE "comment_blocks" (
    "userId" UUID NOT NULL,
    "blockedBy" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comment_blocks_pkey" PRIMARY KEY ("userId")
);
ALTER TABLE "comment_blocks" ADD CONSTRAINT "comment_blocks_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- An account's mail choices about comments: replies to its comments (on unless stopped), and, for
-- staff, every new comment (off unless chosen).
CREATE TABLE "comment_mail_choices" (
    "userId" UUID NOT NULL,
    "replyMails" BOOLEAN NOT NULL DEFAULT true,
    "everyComment" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comment_mail_choices_pkey" PRIMARY KEY ("userId")
);
ALTER TABLE "comment_mail_choices" ADD CONSTRAINT "comment_mail_choices_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The mails a comment owes (a reply to the parent's author, a new comment to staff who chose it):
-- one row per comment and recipient, written with the comment; the job queue sends each once.
CREATE TABLE "comment_mails" (
    "id" UUID NOT NULL,
    "commentId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMPTZ(3),

    CONSTRAINT "comment_mails_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "comment_mails_commentId_userId_key" ON "comment_mails"("commentId", "userId");
CREATE INDEX "comment_mails_state_createdAt_idx" ON "comment_mails"("state", "createdAt");
CREATE INDEX "comment_mails_userId_idx" ON "comment_mails"("userId");
ALTER TABLE "comment_mails" ADD CONSTRAINT "comment_mails_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "comment_mails" ADD CONSTRAINT "comment_mails_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Raised by every change to a post's comments: what a drawn page's comments are keyed on.
CREATE TABLE "post_comment_versions" (
    "postId" INTEGER NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "post_comment_versions_pkey" PRIMARY KEY ("postId")
);
ALTER TABLE "post_comment_versions" ADD CONSTRAINT "post_comment_versions_postId_fkey" FOREIGN KEY ("postId") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
