-- How many views each visitor has reported of each page today (docs/analytics.md#limits): a view
-- past the day's cap for its visitor and page is not kept. Rows go when their day is rolled up.
CREATE TABLE "analytics_visitor_pages" (
    "day" DATE NOT NULL,
    "visitor" BYTEA NOT NULL,
    "path" TEXT NOT NULL,
    "views" INTEGER NOT NULL,

    CONSTRAINT "analytics_visitor_pages_pkey" PRIMARY KEY ("day", "visitor", "path")
);
