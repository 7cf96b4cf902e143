-- Newsletter opens and clicks (docs/newsletter.md#opens-and-clicks): when a delivery's open pixel
-- was first loaded and how often, and each link clicked from a delivery. No IP address, no user
-- agent: a row says only which mail was opened and which of its links was followed.
ALTER TABLE "newsletter_deliveries" ADD COLUMN "openedAt" TIMESTAMPTZ(3),
ADD COLUMN "opens" INTEGER NOT NULL DEFAULT 0;

CREATE TABLE "newsletter_clicks" (
    "deliveryId" UUID NOT NULL,
    "issueSlug" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "clicks" INTEGER NOT NULL DEFAULT 1,
    "firstClickedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastClickedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "newsletter_clicks_pkey" PRIMARY KEY ("deliveryId", "url")
);

-- An issue's figures: its links, unique and total clicks.
CREATE INDEX "newsletter_clicks_issueSlug_idx" ON "newsletter_clicks"("issueSlug");

ALTER TABLE "newsletter_clicks" ADD CONSTRAINT "newsletter_clicks_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "newsletter_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
