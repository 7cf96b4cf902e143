-- The site's content generation: one row, bumped in the transaction of every change to what the
-- site shows. App servers that LISTEN are told the new one; those that cannot (PgBouncer's
-- transaction pooling) read it every second. Either way a server behind it reads the content again.
CREATE TABLE "content_generation" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "generation" BIGINT NOT NULL,

    CONSTRAINT "content_generation_pkey" PRIMARY KEY ("id")
);
