-- Topics' descriptions, as publishers write them in the desk (issue 29). A topic exists while a
-- published post carries its tag (posts' `fields`); a description without one waits for it.
CREATE TABLE "topics" (
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedBy" UUID,

    CONSTRAINT "topics_pkey" PRIMARY KEY ("slug")
);
