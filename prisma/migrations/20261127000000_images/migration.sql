-- Uploaded images (decision note 0017): one row per image; its files (every width, AVIF and WebP) are in
-- UPLOADS_DIR or the S3 bucket under names made from the id and size (contract/images.ts).

CREATE TABLE "images" (
    "id" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "sourceFormat" TEXT NOT NULL,
    "sourceBytes" INTEGER NOT NULL,
    "fileName" TEXT,
    "uploadedBy" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "images_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "images_createdAt_idx" ON "images"("createdAt");
