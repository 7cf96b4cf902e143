import type pg from 'pg';
import { isScreenText, segmentTakenBy } from '../../../contract/posts.js';
import { freeSectionColor, SECTION_COLORS } from '../../../contract/sections.js';
import type {
  DeskSection,
  DeskSections,
  SectionChange,
  SectionCreate,
} from '../../../contract/sections-api.js';
import { isValidEmail, normalizeEmail } from '../../../contract/account-rules.js';
import {
  parsePodcastCategory,
  podcastCoverProblem,
  type SectionPodcast,
} from '../../../contract/podcasts.js';
import type { SiteNavigation, SiteSection } from '../../../contract/sections.js';
import { cleanLine } from '../../../contract/text-hygiene.js';
import type { Staff } from '../staff/staff.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { auditContentChange } from './content-changes.js';
import { findNulCharacter, NUL_MESSAGE } from './find-nul.js';
import { replaceHomeSection } from './site-settings.js';

/**
 * The site's sections (docs/publishing.md, "Sections and the menu"): read for the site, changed by owners from the desk. Each change
 * writes its audit entry and says the content changed, in one transaction; answers the section
 * and the content generation that made it. Any section may be renamed or moved to another
 * address, those listing the special kinds (campaigns, boycotts, resources) too: a section of
 * articles renamed takes its articles' `category` with it; one whose slug changes keeps its old
 * slug, so its old addresses redirect, and the home page's list follows it. Deleting one is
 * section-delete.ts's.
 */

type Db = Pick<pg.Pool, 'query'>;

/** The sections as the site reads them: the navigation, and the slugs sections had before. */
export interface SectionsData {
  navigation: SiteNavigation;
  /** A slug a section had before, to its slug now. */
  oldSlugs: ReadonlyMap<string, string>;
}

type Actor = Pick<Staff, 'userId' | 'email'>;

const SECTION_COLUMNS = `"id", "name", "slug", "description", "position", "inMenu", "lists", "color"`;
/** The desk's sections have their podcast too; the site's pages carry none of it. */
const DESK_SECTION_COLUMNS = `${SECTION_COLUMNS}, "podcast"`;

/** Every section, in the menu's order. */
export async function readSections(db: Db): Promise<SiteSection[]> {
  const { rows } = await db.query<SiteSection>(
    `SELECT ${SECTION_COLUMNS} FROM "sections" ORDER BY "position", "id"`,
  );
  return rows;
}

/** The sections and the navbar's and footer's links, as every page carries them. */
export async function readNavigation(db: Db): Promise<SiteNavigation> {
  const [sections, links] = await Promise.all([readSections(db), readLinks(db)]);
  return { sections, links };
}

async function readLinks(db: Db): Promise<SiteNavigation['links']> {
  const { rows } = await db.query<SiteNavigation['links'][number]>(
    `SELECT "id", "label", "address", "placement", "position" FROM "site_links"
      ORDER BY "placement", "position", "id"`,
  );
  return rows;
}

/** The podcasts: each section of articles that is one, by its id. */
export async function readPodcasts(db: Db): Promise<Map<number, SectionPodcast>> {
  const { rows } = await db.query<{ id: number; podcast: SectionPodcast }>(
    `SELECT "id", "podcast" FROM "sections" WHERE "podcast" IS NOT NULL AND "lists" = 'articles'`,
  );
  return new Map(rows.map((row) => [row.id, row.podcast]));
}

/**
 * What a section lists of `posts` (aliased `p`), as SQL: for a section of articles those naming
 * it, for one of a special kind every post of that kind. The Trash's are the caller's to keep out.
 */
const LISTED_BY = (section: string) => `(
  (${section}."lists" = 'articles' AND p."kind" = 'article'
    AND p."fields"->>'category' = ${section}."name")
  OR p."kind" = CASE ${section}."lists" WHEN 'campaigns' THEN 'campaign'
    WHEN 'boycotts' THEN 'boycott' WHEN 'resources' THEN 'resources' END)`;

/** The sections and links as the desk lists them, with how many posts each section has. */
export async function readDeskSections(db: Db): Promise<DeskSections> {
  const [sections, links, counts] = await Promise.all([
    db.query<DeskSection>(
      `SELECT ${DESK_SECTION_COLUMNS} FROM "sections" ORDER BY "position", "id"`,
    ),
    readLinks(db),
    db.query<{ id: number; posts: number }>(
      `SELECT s."id", count(p."id")::int AS posts FROM "sections" s
         LEFT JOIN "posts" p ON p."deletedAt" IS NULL AND ${LISTED_BY('s')}
        GROUP BY s."id"`,
    ),
  ]);
  return {
    sections: sections.rows,
    links,
    postCounts: Object.fromEntries(counts.rows.map((row) => [String(row.id), row.posts])),
  };
}

/** How many posts the section lists, drafts included, the Trash's not. */
export async function countSectionPosts(tx: Tx, id: number): Promise<number> {
  const { rows } = await tx.query<{ posts: number }>(
    `SELECT count(p."id")::int AS posts FROM "sections" s
       JOIN "posts" p ON p."deletedAt" IS NULL AND ${LISTED_BY('s')}
      WHERE s."id" = $1`,
    [id],
  );
  return rows[0]?.posts ?? 0;
}

/** The navigation, and the slugs sections had before to their slug now (those redirect). */
export async function readSectionsData(db: Db): Promise<SectionsData> {
  const [navigation, old] = await Promise.all([
    readNavigation(db),
    db.query<{ old: string; now: string }>(
      `SELECT o."slug" AS old, s."slug" AS now
         FROM "section_slugs" o JOIN "sections" s ON s."id" = o."sectionId"`,
    ),
  ]);
  return { navigation, oldSlugs: new Map(old.rows.map((row) => [row.old, row.now])) };
}

export interface SectionResult {
  section: DeskSection;
  generation: number;
}

/**
 * A new section, last in the menu: of articles, or of a special kind no section lists now (the
 * page of its kind is then at its address).
 */
export async function createSection(
  pool: pg.Pool,
  actor: Actor,
  input: SectionCreate,
): Promise<SectionResult> {
  const name = cleanName(input.name);
  const description = cleanDescription(input.description ?? '');
  const lists = input.lists ?? 'articles';
  if (input.color !== undefined) requirePaletteColor(input.color);
  return withTransaction(pool, async (tx) => {
    await lockSections(tx);
    await requireFree(tx, { name, slug: input.slug });
    if (lists !== 'articles') {
      const { rows: same } = await tx.query<{ name: string }>(
        `SELECT "name" FROM "sections" WHERE "lists" = $1`,
        [lists],
      );
      if (same[0]) {
        throw new DomainError(
          409,
          'section_taken',
          `lists: the section "${same[0].name}" lists the ${lists} already: a site has one.`,
        );
      }
    }
    // A colour of its own unless the owner chose one: the palette's first no section has.
    const taken = await tx.query<{ color: string }>(`SELECT "color" FROM "sections"`);
    const color = input.color ?? freeSectionColor(taken.rows.map((row) => row.color));
    const { rows } = await tx.query<DeskSection>(
      `INSERT INTO "sections" ("name", "slug", "description", "position", "inMenu", "lists", "color")
        VALUES ($1, $2, $3, (SELECT coalesce(max("position"), 0) + 1 FROM "sections"), $4,
          $6, $5)
        RETURNING ${DESK_SECTION_COLUMNS}`,
      [name, input.slug, description, input.inMenu, color, lists],
    );
    const section = one(rows);
    // A slug a section had before leads here now, not there.
    await tx.query(`DELETE FROM "section_slugs" WHERE "slug" = $1`, [input.slug]);
    const generation = await auditContentChange(tx, actor, {
      action: 'section_create',
      before: null,
      after: section,
    });
    return { section, generation };
  });
}

/** Renames, describes, moves or shows/hides a section; makes it a podcast, changes or stops it. */
export async function changeSection(
  pool: pg.Pool,
  actor: Actor,
  id: number,
  change: SectionChange,
): Promise<SectionResult> {
  const name = change.name === undefined ? undefined : cleanName(change.name);
  const description =
    change.description === undefined ? undefined : cleanDescription(change.description);
  if (change.color !== undefined) requirePaletteColor(change.color);
  const podcast = change.podcast === undefined ? undefined : cleanPodcast(change.podcast);
  return withTransaction(pool, async (tx) => {
    await lockSections(tx);
    const before = await sectionById(tx, id);
    if (podcast && before.lists !== 'articles') {
      throw new DomainError(
        400,
        'invalid_section',
        `podcast: only a section of articles can be a podcast; ${before.name} lists the ${before.lists}.`,
      );
    }
    const renamed = name !== undefined && name !== before.name;
    const moved = change.slug !== undefined && change.slug !== before.slug;
    await requireFree(tx, {
      name: renamed ? name : undefined,
      slug: moved ? change.slug : undefined,
    });
    await tx.query(
      `UPDATE "sections" SET "name" = $2, "slug" = $3, "description" = $4, "inMenu" = $5,
          "color" = $6, "podcast" = $7, "updatedAt" = now()
        WHERE "id" = $1`,
      [
        id,
        name ?? before.name,
        change.slug ?? before.slug,
        description ?? before.description,
        change.inMenu ?? before.inMenu,
        change.color ?? before.color,
        podcast === undefined ? before.podcast : podcast,
      ],
    );
    if (renamed && before.lists === 'articles') {
      // The articles go with their section: an article's `category` is its section's name.
      await tx.query(
        `UPDATE "posts" SET "fields" = jsonb_set("fields", '{category}', to_jsonb($2::text))
          WHERE "kind" = 'article' AND "fields"->>'category' = $1`,
        [before.name, name],
      );
    }
    if (moved && change.slug) {
      await tx.query(`DELETE FROM "section_slugs" WHERE "slug" = $1`, [change.slug]);
      await tx.query(
        `INSERT INTO "section_slugs" ("slug", "sectionId") VALUES ($1, $2)
          ON CONFLICT ("slug") DO UPDATE SET "sectionId" = $2, "createdAt" = now()`,
        [before.slug, id],
      );
      await replaceHomeSection(tx, before.slug, change.slug);
    }
    if (change.position !== undefined) await moveSection(tx, id, change.position);
    const section = await sectionById(tx, id);
    const generation = await auditContentChange(tx, actor, {
      action: 'section_change',
      before,
      after: section,
    });
    return { section, generation };
  });
}

/** Whether `name` is a section of articles (an article's `category` must be one). */
export async function isArticleSection(db: Db, name: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM "sections" WHERE "name" = $1 AND "lists" = 'articles'`,
    [name],
  );
  return rows.length > 0;
}

/** The names of the sections of articles, in the menu's order. */
export async function readArticleSectionNames(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT "name" FROM "sections" WHERE "lists" = 'articles' ORDER BY "position", "id"`,
  );
  return rows.map((row) => row.name);
}

/** Changes to sections one at a time: positions and uniqueness are checked against the rest. */
export async function lockSections(tx: Tx) {
  await tx.query(`LOCK TABLE "sections" IN SHARE ROW EXCLUSIVE MODE`);
}

export async function sectionById(tx: Tx, id: number): Promise<DeskSection> {
  const { rows } = await tx.query<DeskSection>(
    `SELECT ${DESK_SECTION_COLUMNS} FROM "sections" WHERE "id" = $1`,
    [id],
  );
  const section = rows[0];
  if (!section) throw new DomainError(404, 'not_found', `No section ${id}.`);
  return section;
}

/** Refuses a name or a slug another section has, or an address something else answers. */
async function requireFree(tx: Tx, { name, slug }: { name?: string; slug?: string }) {
  if (name !== undefined) {
    const { rows } = await tx.query(`SELECT 1 FROM "sections" WHERE lower("name") = lower($1)`, [
      name,
    ]);
    if (rows.length > 0) {
      throw new DomainError(409, 'section_taken', `name: there is already a section "${name}".`);
    }
  }
  if (slug === undefined) return;
  const { rows: sections } = await tx.query<{ name: string }>(
    `SELECT "name" FROM "sections" WHERE "slug" = $1`,
    [slug],
  );
  if (sections[0]) {
    throw new DomainError(
      409,
      'section_taken',
      `slug: /${slug} is the address of the section "${sections[0].name}".`,
    );
  }
  // A section's own old slug may be taken again; any other address the site answers may not.
  const { rows: old } = await tx.query(`SELECT 1 FROM "section_slugs" WHERE "slug" = $1`, [slug]);
  const taken = old.length > 0 ? null : segmentTakenBy(slug);
  if (taken) throw new DomainError(409, 'section_taken', `slug: ${taken}: choose another slug.`);
  // A screen's text (`collective`) is no page at its slug: a section may take that address.
  if (isScreenText(slug)) return;
  const { rows: pages } = await tx.query<{ title: string }>(
    `SELECT "title" FROM "posts" WHERE "kind" = 'page' AND "slug" = $1 AND "deletedAt" IS NULL`,
    [slug],
  );
  if (pages[0]) {
    throw new DomainError(
      409,
      'section_taken',
      `slug: /${slug} is the address of the page "${pages[0].title}": choose another slug.`,
    );
  }
}

/** Puts the section at `position` (1: first; past the end: last), the others after it in order. */
async function moveSection(tx: Tx, id: number, position: number) {
  const order = (await readSections(tx)).map((each) => each.id).filter((each) => each !== id);
  order.splice(Math.min(position, order.length + 1) - 1, 0, id);
  await renumber(tx, order);
}

export async function renumber(tx: Tx, ids: readonly number[]) {
  await tx.query(
    `UPDATE "sections" s SET "position" = o.position
       FROM unnest($1::int[]) WITH ORDINALITY AS o(id, position)
      WHERE s."id" = o.id AND s."position" <> o.position`,
    [ids],
  );
}

function cleanName(name: string): string {
  const text = cleanLine(name);
  if (text === '') {
    throw new DomainError(400, 'invalid_section', 'name: must not be empty.');
  }
  return text;
}

function cleanDescription(description: string): string {
  if (findNulCharacter(description) !== null) {
    throw new DomainError(400, 'invalid_section', `description: ${NUL_MESSAGE}.`);
  }
  return description.replace(/\s+/g, ' ').trim();
}

function one<T>(rows: T[]): T {
  const row = rows[0];
  if (!row) throw new Error('INSERT … RETURNING answered no row');
  return row;
}

/**
 * A podcast as it is kept: its author one clean line, its category one of Apple's, its cover an
 * upload the directories take, its address a mailbox's; a 400 naming the first that is not.
 */
function cleanPodcast(podcast: SectionChange['podcast']): SectionPodcast | null {
  if (!podcast) return null;
  const refuse = (message: string) => new DomainError(400, 'invalid_section', `podcast.${message}`);
  const author = cleanLine(podcast.author);
  if (author === '') throw refuse('author: must not be empty.');
  if (!parsePodcastCategory(podcast.category)) {
    throw refuse(
      `category: "${podcast.category}" is not one of Apple Podcasts’ categories: write one as the list has it, such as "News" or "Arts > Books".`,
    );
  }
  const cover = podcastCoverProblem(podcast.image);
  if (cover) throw refuse(`image: ${cover}.`);
  const email = podcast.email ? normalizeEmail(podcast.email) : null;
  if (email !== null && !isValidEmail(email)) {
    throw refuse(`email: "${podcast.email}" is not an email address.`);
  }
  return {
    author,
    category: podcast.category,
    explicit: podcast.explicit,
    image: podcast.image,
    email,
  };
}

/** A 400 for a colour outside the palette, whose colours are all readable on the site's pages. */
function requirePaletteColor(color: string) {
  if (SECTION_COLORS.some((choice) => choice.value === color)) return;
  throw new DomainError(
    400,
    'invalid_section',
    `color: must be one of the palette's colours (${SECTION_COLORS.map((c) => c.value).join(', ')}), each readable on the site's pages.`,
  );
}
