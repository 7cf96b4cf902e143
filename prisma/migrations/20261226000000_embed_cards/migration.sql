-- What was read of each card's address (decision 29, contract/embeds.ts): an address alone on its
-- line in a post is a card, and what its provider's oEmbed answer or its page's tags said of it is
-- kept here, once per address, beside the Markdown (server/src/embeds/). `read` keeps the card (its
-- thumbnail or image an upload of this site); `unreachable`, why it could not be read: the post
-- shows a bookmark's address as a link, and an embed with what its address alone says.
CREATE TABLE "embed_cards" (
    "url" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "card" JSONB,
    "reason" TEXT,
    "readAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "embed_cards_pkey" PRIMARY KEY ("url"),
    CONSTRAINT "embed_cards_reading" CHECK (
        ("state" = 'read' AND "card" IS NOT NULL AND "reason" IS NULL)
        OR ("state" = 'unreachable' AND "card" IS NULL AND "reason" IS NOT NULL)
    )
);
