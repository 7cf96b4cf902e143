import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import type { SampleCounts } from '../../../contract/sample-content.js';
import { readBySchema } from '../../../contract/schema-problems.js';
import { SiteSettingsPatchSchema } from '../../../contract/site-settings-api.js';
import type { SiteSettings } from '../../../contract/site-settings.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';
import { contentChanged } from './content-changes.js';

/**
 * The sample content: the shipped content/ is one publication's site, loaded into a
 * new site so that it has something to show, never the software's own words. What the first start
 * imports from it is marked `sample` (posts, the five shipped sections, the footer's links to the
 * shipped topic pages; the shipped perks say `sample: true` in their files), and one row of
 * `site_samples` says whether the site has its samples (`loaded`):
 * - SAMPLE_CONTENT=on (the default): a new site loads them, with the sample site's settings
 *   (content/settings.json);
 * - SAMPLE_CONTENT=off: a new site starts with one empty "Articles" section and nothing else of
 *   the samples;
 * - "Remove the sample content" (the desk) takes out every sample post and perk, and every sample
 *   section no other post uses, and nothing else; content_seeds keeps the record of what was
 *   imported and the site is no longer `loaded`, so no start brings them back.
 * An existing site is never changed by the switch.
 */

type Db = Pick<pg.Pool, 'query'>;

/** The sample site's settings file in a content folder (content/FORMAT.md). */
export const SAMPLE_SETTINGS_FILE = 'settings.json';

/**
 * What the sample settings may say: the words and links of the sample publication. Its home page
 * (`home`) and its look are the desk's, and its language and time zone the operator's.
 */
export const SAMPLE_SETTINGS_FIELDS = [
  'title',
  'description',
  'footerText',
  'signupText',
  'socialLinks',
  'accentColor',
  'home',
] as const satisfies readonly (keyof SiteSettings)[];

/** The one section a site without samples starts with. */
export const FIRST_SECTION = { name: 'Articles', slug: 'articles' } as const;

/** Where each special section's posts are: a section of articles holds those naming it. */
const SECTION_KINDS: Record<string, string> = {
  campaigns: 'campaign',
  boycotts: 'boycott',
  resources: 'resources',
};

/**
 * The sample site's settings from `<dir>/settings.json`, checked field by field: nothing when
 * the folder has none, a problem naming each wrong field (and no settings) when it is wrong.
 */
export async function readSampleSettings(
  dir: string,
): Promise<{ ok: true; settings: Partial<SiteSettings> } | { ok: false; problem: string }> {
  const file = join(dir, SAMPLE_SETTINGS_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, settings: {} };
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `${file}: ${(error as Error).message}` };
  }
  const problems: string[] = [];
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, problem: `${file}: must be a JSON object` };
  }
  for (const key of Object.keys(json)) {
    if (!(SAMPLE_SETTINGS_FIELDS as readonly string[]).includes(key)) {
      problems.push(`${file}: ${key}: is not one of ${SAMPLE_SETTINGS_FIELDS.join(', ')}`);
    }
  }
  const read = readBySchema(SiteSettingsPatchSchema, json, { whole: 'settings', defaults: false });
  if (!read.ok) {
    for (const { field, message } of read.problems) problems.push(`${file}: ${field}: ${message}`);
  }
  if (problems.length > 0 || !read.ok) return { ok: false, problem: problems.join('\n') };
  return { ok: true, settings: read.value as Partial<SiteSettings> };
}

/**
 * The first start's choice, made once (the `site_samples` row): with `samples`, the site loads the
 * samples; without, a new site (no posts, nothing imported before) starts with one empty
 * "Articles" section in place of the sample ones, and a site that ran before keeps what it has.
 * Answers whether the site has its samples now.
 */
export async function startSamples(pool: pg.Pool, samples: boolean): Promise<{ loaded: boolean }> {
  return withTransaction(pool, async (tx) => {
    // Two app servers starting at once: one decides, the other reads what it decided.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('cohort:samples'))`);
    const known = await tx.query<{ loaded: boolean }>(
      `SELECT "loaded" FROM "site_samples" WHERE "id" = 1`,
    );
    if (known.rows[0]) return { loaded: known.rows[0].loaded };
    // The switch is for a new site only: one that ran before keeps what it has.
    const loaded = samples || !(await isNewSite(tx));
    if (!loaded) {
      await tx.query(`DELETE FROM "sections" WHERE "sample"`);
      await tx.query(`DELETE FROM "site_links" WHERE "sample"`);
      const position = await tx.query<{ next: number }>(
        `SELECT COALESCE(max("position"), 0) + 1 AS next FROM "sections"`,
      );
      await tx.query(
        `INSERT INTO "sections" ("name", "slug", "position", "lists") VALUES ($1, $2, $3, 'articles')
          ON CONFLICT DO NOTHING`,
        [FIRST_SECTION.name, FIRST_SECTION.slug, position.rows[0]?.next ?? 1],
      );
      await contentChanged(tx);
    }
    await tx.query(`INSERT INTO "site_samples" ("id", "loaded") VALUES (1, $1)`, [loaded]);
    return { loaded };
  });
}

/** A site that has never had a post nor imported anything: what SAMPLE_CONTENT=off may shape. */
async function isNewSite(tx: Tx): Promise<boolean> {
  const { rows } = await tx.query<{ used: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM "posts") OR EXISTS (SELECT 1 FROM "content_seeds") AS used`,
  );
  return rows[0]?.used === false;
}

/** Whether the site has its samples: the sample perks are shown and content/ is imported. */
export async function samplesLoaded(db: Db): Promise<boolean> {
  const { rows } = await db.query<{ loaded: boolean }>(
    `SELECT "loaded" FROM "site_samples" WHERE "id" = 1`,
  );
  return rows[0]?.loaded ?? false;
}

/**
 * The sample sections no other post (drafts and the Trash included) is in: what removing the
 * samples would take out.
 */
const UNUSED_SAMPLE_SECTIONS = `
  SELECT s."id", s."name", s."slug" FROM "sections" s
   WHERE s."sample" AND NOT EXISTS (
     SELECT 1 FROM "posts" p
      WHERE NOT p."sample"
        AND CASE s."lists"
              WHEN 'articles' THEN p."kind" = 'article' AND p."fields"->>'category' = s."name"
              ELSE p."kind" = ($1::jsonb)->>s."lists"
            END)`;

/** What of the samples is still on the site (`sampleIds`: the ids of the sample perks). */
export async function countSamples(db: Db, samplePerks: readonly string[]): Promise<SampleCounts> {
  const [posts, sections, loaded] = await Promise.all([
    db.query<{ count: string }>(`SELECT count(*) FROM "posts" WHERE "sample"`),
    db.query(UNUSED_SAMPLE_SECTIONS, [JSON.stringify(SECTION_KINDS)]),
    samplesLoaded(db),
  ]);
  return {
    posts: Number(posts.rows[0]?.count ?? 0),
    perks: loaded ? samplePerks.length : 0,
    sections: sections.rowCount ?? 0,
  };
}

/**
 * Takes out every sample post (edited or not, drafts and the Trash included), the sample perks,
 * every sample section no other post is in and the sample links to the pages removed; audited,
 * in one transaction with the content generation's bump. The settings' words stay, as do the
 * owner's own posts, the members and the money. A second call removes nothing.
 */
export async function removeSamples(
  pool: pg.Pool,
  actor: Pick<Staff, 'userId' | 'email'>,
  samplePerks: readonly string[],
): Promise<{ removed: SampleCounts; generation: number | null }> {
  return withTransaction(pool, async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('cohort:samples'))`);
    const wasLoaded = await tx.query<{ loaded: boolean }>(
      `SELECT "loaded" FROM "site_samples" WHERE "id" = 1 FOR UPDATE`,
    );
    const perks = wasLoaded.rows[0]?.loaded ? [...samplePerks] : [];
    const posts = await tx.query<{ kind: string; slug: string }>(
      `DELETE FROM "posts" WHERE "sample" RETURNING "kind", "slug"`,
    );
    const sections = await tx.query<{ name: string; slug: string }>(
      `DELETE FROM "sections" WHERE "id" IN (SELECT "id" FROM (${UNUSED_SAMPLE_SECTIONS}) AS unused)
        RETURNING "name", "slug"`,
      [JSON.stringify(SECTION_KINDS)],
    );
    // A footer link to a sample page that is gone would lead nowhere.
    const pages = posts.rows.filter((post) => post.kind === 'page').map((post) => `/${post.slug}`);
    const links = await tx.query<{ label: string; address: string }>(
      `DELETE FROM "site_links" WHERE "sample" AND "address" = ANY($1::text[])
        RETURNING "label", "address"`,
      [pages],
    );
    await tx.query(
      `INSERT INTO "site_samples" ("id", "loaded") VALUES (1, false)
        ON CONFLICT ("id") DO UPDATE SET "loaded" = false, "updatedAt" = now()`,
    );
    const removed: SampleCounts = {
      posts: posts.rowCount ?? 0,
      perks: perks.length,
      sections: sections.rowCount ?? 0,
    };
    const changed = removed.posts + removed.perks + removed.sections + (links.rowCount ?? 0) > 0;
    if (!changed) return { removed, generation: null };
    await writeAudit(tx, actor, {
      action: 'samples_remove',
      targetUserId: null,
      before: {
        posts: posts.rows.map((post) => `${post.kind}/${post.slug}`),
        perks,
        sections: sections.rows.map((section) => section.name),
        links: links.rows.map((link) => `${link.label} (${link.address})`),
      },
      after: null,
    });
    return { removed, generation: await contentChanged(tx) };
  });
}
