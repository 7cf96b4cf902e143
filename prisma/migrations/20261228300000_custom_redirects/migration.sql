-- The publisher's own redirects (server/src/redirects/): one row, the file as the owner gave it in
-- Ghost's shapes (`redirects.json` or `redirects.yaml`), from the desk's Redirects page or a Ghost
-- import. A change bumps the content generation in the same transaction, so every app server
-- reads it again within a second.
CREATE TABLE "custom_redirects" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "format" TEXT NOT NULL,
    "file" TEXT NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "custom_redirects_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "custom_redirects_one_row" CHECK ("id" = 1),
    CONSTRAINT "custom_redirects_format" CHECK ("format" IN ('json', 'yaml'))
);
