-- Sections and navigation are the publisher's data (issue 41). A section lists articles (any
-- number of them) or one of the site's special kinds (`campaigns`: Direct Action, `boycotts`:
-- Collective Action, `resources`: Empowerment), each once. The five shipped sections are rows,
-- in today's order, with today's names, addresses and intros. A section whose slug changes keeps
-- its old slugs in "section_slugs", so its old addresses redirect (301) to the new ones.
CREATE TABLE "sections" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "position" INTEGER NOT NULL,
    "inMenu" BOOLEAN NOT NULL DEFAULT true,
    "lists" TEXT NOT NULL DEFAULT 'articles',
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sections_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "sections_name_key" ON "sections"("name");

CREATE UNIQUE INDEX "sections_slug_key" ON "sections"("slug");

CREATE TABLE "section_slugs" (
    "slug" TEXT NOT NULL,
    "sectionId" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "section_slugs_pkey" PRIMARY KEY ("slug")
);

CREATE INDEX "section_slugs_sectionId_idx" ON "section_slugs"("sectionId");

ALTER TABLE "section_slugs" ADD CONSTRAINT "section_slugs_sectionId_fkey" FOREIGN KEY ("sectionId") REFERENCES "sections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The links the navbar and the footer show besides the sections: `placement` is `navbar` or
-- `footer`; each placement in `position` order.
CREATE TABLE "site_links" (
    "id" SERIAL NOT NULL,
    "label" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "placement" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "site_links_pkey" PRIMARY KEY ("id")
);

INSERT INTO "sections" ("name", "slug", "description", "position", "lists") VALUES
  ('Health', 'health', 'Sleep, food, movement, mental health and getting care without going broke: practical guides for your twenties and thirties.', 1, 'articles'),
  ('Wealth', 'wealth', 'Saving, investing, debt, careers and your rights as a consumer, explained in plain English.', 2, 'articles'),
  ('Direct Action', 'direct-action', 'Campaigns where your time or money goes straight to the people doing the work, close to home.', 3, 'campaigns'),
  ('Collective Action', 'collective', 'Boycotts that changed history and the ones still going: why people stopped buying, what they supported instead and what happened next.', 4, 'boycotts'),
  ('Empowerment', 'empowerment', 'Free courses from respected universities and organizations in coding, data, AI, writing, design and public speaking, chosen for people aged 18–41.', 5, 'resources');

INSERT INTO "site_links" ("label", "address", "placement", "position") VALUES
  ('Perks', '/perks', 'navbar', 1),
  ('Member perks', '/perks', 'footer', 1),
  ('Newsletter', '/newsletter', 'footer', 2),
  ('Give a year', '/gift', 'footer', 3),
  ('Pay it forward', '/pay-it-forward', 'footer', 4),
  ('Home Buying', '/home-buying', 'footer', 5),
  ('Student Debt Relief', '/student-debt-relief', 'footer', 6),
  ('Work and Jobs', '/work-and-jobs', 'footer', 7),
  ('Media', '/media', 'footer', 8),
  ('Legal Resources', '/legal-resources', 'footer', 9),
  ('All topics', '/topics', 'footer', 10),
  ('Search', '/search', 'footer', 11);
