-- The publication's own identity and look (decision 26, contract/site-settings.ts): one row, its
-- settings as one JSON document the desk's Settings page changes (server/src/content/site-settings.ts).
-- Made at the first start from SITE_NAME and friends; a change bumps the content generation in the
-- same transaction, so every app server draws it within a second.
CREATE TABLE "site_settings" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "settings" JSONB NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "site_settings_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "site_settings_one_row" CHECK ("id" = 1)
);
