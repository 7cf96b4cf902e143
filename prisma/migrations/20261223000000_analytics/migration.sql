-- Analytics in the site's own database (docs/analytics.md). No IP address and no user agent is
-- stored: a visitor is a hash made with the day's salt, and the salt is deleted after its day.

-- The day's random salt, shared by every app server; deleted once its day is over.
CREATE TABLE "analytics_salts" (
    "day" DATE NOT NULL,
    "salt" BYTEA NOT NULL,

    CONSTRAINT "analytics_salts_pkey" PRIMARY KEY ("day")
);

-- Each counted page view, kept 90 days. `source` is null for a view reached from the site itself.
CREATE TABLE "analytics_events" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "day" DATE NOT NULL,
    "visitor" BYTEA NOT NULL,
    "path" TEXT NOT NULL,
    "postId" INTEGER,
    "source" TEXT,

    CONSTRAINT "analytics_events_pkey" PRIMARY KEY ("id")
);

-- A visitor's views today (what they read last); today's figures by post, read in order.
CREATE INDEX "analytics_events_day_visitor_idx" ON "analytics_events"("day", "visitor");
CREATE INDEX "analytics_events_day_postId_visitor_idx" ON "analytics_events"("day", "postId", "visitor");

-- Each visitor's first source of the day (when they came with one), for as long as the day's raw
-- views are not rolled up.
CREATE TABLE "analytics_visitors" (
    "day" DATE NOT NULL,
    "visitor" BYTEA NOT NULL,
    "source" TEXT NOT NULL,

    CONSTRAINT "analytics_visitors_pkey" PRIMARY KEY ("day", "visitor")
);

-- A finished day's figures (a row per day rolled up, zero when nothing was counted).
CREATE TABLE "analytics_days" (
    "day" DATE NOT NULL,
    "views" INTEGER NOT NULL,
    "visitors" INTEGER NOT NULL,

    CONSTRAINT "analytics_days_pkey" PRIMARY KEY ("day")
);

-- A finished day's visitors by source (each visitor under the first source of their day).
CREATE TABLE "analytics_day_sources" (
    "day" DATE NOT NULL,
    "source" TEXT NOT NULL,
    "visitors" INTEGER NOT NULL,

    CONSTRAINT "analytics_day_sources_pkey" PRIMARY KEY ("day", "source")
);

-- A finished day's views and visitors by page.
CREATE TABLE "analytics_day_paths" (
    "day" DATE NOT NULL,
    "path" TEXT NOT NULL,
    "postId" INTEGER,
    "views" INTEGER NOT NULL,
    "visitors" INTEGER NOT NULL,

    CONSTRAINT "analytics_day_paths_pkey" PRIMARY KEY ("day", "path")
);

CREATE INDEX "analytics_day_paths_postId_day_idx" ON "analytics_day_paths"("postId", "day");

-- A finished day's views and visitors of each post by source.
CREATE TABLE "analytics_day_post_sources" (
    "day" DATE NOT NULL,
    "postId" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "views" INTEGER NOT NULL,
    "visitors" INTEGER NOT NULL,

    CONSTRAINT "analytics_day_post_sources_pkey" PRIMARY KEY ("day", "postId", "source")
);

CREATE INDEX "analytics_day_post_sources_postId_day_idx" ON "analytics_day_post_sources"("postId", "day");

-- Each post's views and visitors by month (the sum of its finished days): a year reads 12 rows a post.
CREATE TABLE "analytics_month_posts" (
    "month" DATE NOT NULL,
    "postId" INTEGER NOT NULL,
    "views" INTEGER NOT NULL,
    "visitors" INTEGER NOT NULL,

    CONSTRAINT "analytics_month_posts_pkey" PRIMARY KEY ("month", "postId")
);

-- A registration or a payment, credited to the post read last before it and to its source; once
-- per account or payment (`key`).
CREATE TABLE "analytics_conversions" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "day" DATE NOT NULL,
    "postId" INTEGER,
    "source" TEXT NOT NULL,
    "revenueCents" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "analytics_conversions_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "analytics_conversions_key_key" ON "analytics_conversions"("key");
CREATE INDEX "analytics_conversions_day_idx" ON "analytics_conversions"("day");

-- What a reader read last when they started paying, until the payment arrives (7 days at most).
CREATE TABLE "analytics_checkouts" (
    "userId" UUID NOT NULL,
    "postId" INTEGER,
    "source" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "analytics_checkouts_pkey" PRIMARY KEY ("userId")
);
