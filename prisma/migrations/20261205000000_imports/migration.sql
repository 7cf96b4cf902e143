-- Bringing a publication from Ghost, WordPress, Substack or Medium (server/src/imports/).

-- What a member brought: their name, the publisher's note and labels.
ALTER TABLE "users" ADD COLUMN "name" TEXT;
ALTER TABLE "users" ADD COLUMN "note" TEXT;
ALTER TABLE "users" ADD COLUMN "labels" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];

-- Each post, page or member an import made, by the platform's own id: a second run of the same
-- file finds it, and changes it only when the file changed and nobody edited it here since.
CREATE TABLE "import_items" (
    "source" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "authors" JSONB NOT NULL DEFAULT '[]',
    "importedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "import_items_pkey" PRIMARY KEY ("source", "kind", "sourceId")
);
CREATE INDEX "import_items_kind_targetId_idx" ON "import_items"("kind", "targetId");

-- A Stripe Price members paid on the old platform, mapped to a plan here (`--price`): its
-- subscriptions count as the plan's.
CREATE TABLE "imported_prices" (
    "priceId" TEXT NOT NULL,
    "plan" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "imported_prices_pkey" PRIMARY KEY ("priceId")
);

-- An import started from the desk: its progress while it runs, then its report.
CREATE TABLE "imports" (
    "id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "section" TEXT,
    "fileName" TEXT,
    "status" TEXT NOT NULL,
    "progress" JSONB NOT NULL DEFAULT '{}',
    "report" JSONB,
    "error" TEXT,
    "createdBy" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "imports_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "imports_createdAt_idx" ON "imports"("createdAt");
