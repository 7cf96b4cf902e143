import { createHash } from 'node:crypto';
import type pg from 'pg';
import { articleCategories } from '../../../contract/content-types.js';
import { segmentTakenBy, type PostKind } from '../../../contract/posts.js';
import { categoryPath } from '../../../contract/site-paths.js';
import { topicSlug } from '../../../contract/topics.js';
import type { AppConfig } from '../config.js';
import type { PostSchedule } from '../content/post-schedule.js';
import { DomainError } from '../domain-error.js';
import type { CardReader } from '../embeds/card-reader.js';
import type { ImageStore } from '../uploads/image-store.js';
import { cleanSlug, withoutInvisible } from './clean-slug.js';
import type {
  ImportCounts,
  ImportReport,
  ImportSource,
  SourceBundle,
  SourceImage,
  SourcePost,
} from './source.js';

/*
 * What an import decides before it writes a post (import-posts.ts writes them): what the writing
 * is given and reports, each post's slug, the section it goes to, the address it had, what it is
 * known by from one run to the next and the digest that says whether the file changed it.
 */

/** What writing posts needs of the site (run-import.ts's ImportDeps has it all). */
export interface PostsDeps {
  pool: pg.Pool;
  imageStore: ImageStore;
  /** Where uploads go; the currency a tier the export brings is sold in, when the site has none. */
  config: Pick<AppConfig, 'uploads' | 'membership'>;
  /** Tests only: lets image fetches reach 127.0.0.1 (fetch-image.ts). */
  allowPrivateAddresses?: boolean;
  /** Tests only: false takes the export's own images and fetches none (fetch-image.ts). */
  fetchRemoteImages?: boolean;
  /** The site's schedule (the desk passes the app's): a scheduled post's job is added there. */
  schedule?: Pick<PostSchedule, 'publishAt'>;
  /** Reads the cards the posts name before they are written (none are read without it). */
  cards?: CardReader;
}

export interface PostsOptions {
  dryRun: boolean;
  /** Where posts no mapped tag places go (else the first section). */
  section?: string;
  /** Tag name → section: a post goes to the section of its first tag mapped here. */
  map?: Record<string, string>;
}

export type PostsProgress = (progress: {
  phase: 'images' | 'media' | 'posts';
  done: number;
  total: number;
}) => void;

/** The report's parts that posts fill. */
export type PostsOutcome = Pick<
  ImportReport,
  'posts' | 'pages' | 'drafts' | 'scheduled' | 'topics' | 'redirects' | 'images' | 'notes'
>;

/**
 * A section named on the command line or the Import page, as the site spells it, among the site's
 * sections of articles (`sections`, the sections table's, in the menu's order); refused before
 * anything is written.
 */
function sectionNamed(name: string, where: string, sections: readonly string[]): string {
  const found = sections.find((section) => section.toLowerCase() === name.trim().toLowerCase());
  if (!found) {
    throw new DomainError(
      400,
      'unknown_section',
      `${where}: there is no section "${name}" (the sections are ${sections.join(', ')}).`,
    );
  }
  return found;
}

/** Refuses a section or a `--map` naming one the site does not have, before anything is read. */
export function checkPlacement(options: PostsOptions, sections: readonly string[]): void {
  placement(options, sections);
}

/** Where each post goes, decided once: by its first mapped tag, else the default section. */
export function placement(options: PostsOptions, sections: readonly string[]) {
  const fallback = options.section
    ? sectionNamed(options.section, '--section', sections)
    : sections[0];
  if (!fallback) throw new DomainError(400, 'unknown_section', 'The site has no sections.');
  const byTag = new Map<string, string>();
  for (const [tag, section] of Object.entries(options.map ?? {})) {
    byTag.set(topicSlug(tag), sectionNamed(section, `--map ${tag}=${section}`, sections));
  }
  const how = options.section ? 'the section chosen' : 'the first section, as none was chosen';
  return (post: SourcePost): { section: string; how: string } => {
    for (const tag of post.tags) {
      const section = byTag.get(topicSlug(tag));
      if (section) return { section, how: 'by their tags (--map)' };
    }
    return { section: fallback, how };
  };
}

/**
 * Each post's slug here, cleaned (clean-slug.ts) and told apart from the export's other posts of
 * its kind: a later post with a slug an earlier one has takes its title's, else a number. Decided
 * from the whole file in its order, so every run of the same file gives each post the same slug.
 */
export function slugsOf(
  posts: readonly SourcePost[],
): Map<SourcePost, { slug: string; note?: string }> {
  const used = new Set<string>();
  const slugs = new Map<SourcePost, { slug: string; note?: string }>();
  for (const post of posts) {
    const kind = post.type === 'page' ? 'page' : 'article';
    const wanted = cleanSlug(post.slug, post.title, post.sourceId);
    let slug = wanted;
    if (used.has(`${kind}:${slug}`)) slug = cleanSlug('', post.title, post.sourceId);
    for (let number = 2; used.has(`${kind}:${slug}`); number += 1) slug = `${wanted}-${number}`;
    used.add(`${kind}:${slug}`);
    slugs.set(
      post,
      slug === wanted
        ? { slug }
        : {
            slug,
            note: `"${nameOf(post)}": slug "${wanted}" is an earlier ${kind === 'page' ? 'page' : 'post'}'s in this export; "${slug}" instead`,
          },
    );
  }
  return slugs;
}

/** A post as the report names it: its title, else its slug or id, without invisible characters. */
export const nameOf = (post: SourcePost) =>
  withoutInvisible(post.title.trim() || post.slug || post.sourceId).replace(/\s+/g, ' ');

/**
 * An old address as a path: its path (without a trailing slash) or, for WordPress's `/?p=N` and
 * `/?page_id=N`, that; null for anything else (the home page, another scheme, a query that names
 * no post).
 */
function pathOfAddress(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address.trim(), 'http://old-site.invalid');
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  if (path !== '/') return path;
  for (const name of ['p', 'page_id']) {
    const id = url.searchParams.get(name);
    if (id && /^\d+$/.test(id)) return `/?${name}=${id}`;
  }
  return null;
}

/** The first segments of the seed's sections of articles, below which articles live. */
const SECTION_SEGMENTS = new Set(articleCategories.map((name) => categoryPath(name).slice(1)));

/**
 * Why an old address is the site's own, or null: one of its screens (`/login`, `/desk/…`), or
 * what its server answers itself (`/api/…`, `/assets/…`, `/join`), by the table contract/posts.ts
 * keeps of them. Read as the router would (decoded) and in any case, so `/%6Cogin` and `/LOGIN`
 * count; below a section of articles (`/health/old-post`) is an article's address, and allowed.
 */
export function siteOwnAddress(address: string): string | null {
  const path = pathOfAddress(address);
  if (path === null || path.startsWith('/?')) return null;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: the path as it is.
  }
  const segments = decoded.toLowerCase().split('/');
  const first = segments[1] ?? '';
  if (segments.length > 2 && SECTION_SEGMENTS.has(first)) return null;
  return segmentTakenBy(first);
}

/**
 * An old address as a path the site can answer for an imported post (pathOfAddress), never one
 * the site keeps for itself (siteOwnAddress): an import must not put a redirect on a screen.
 */
export function oldPathOf(address: string): string | null {
  return siteOwnAddress(address) === null ? pathOfAddress(address) : null;
}

/**
 * What the report says of the file's posts before they are written: why a post is members-only
 * when its platform did not plainly say paid, and each old address not kept, because the site
 * has that address itself.
 */
export function readingNotes(posts: readonly SourcePost[]): string[] {
  const notes: string[] = [];
  for (const post of posts) {
    if (post.accessNote) notes.push(`"${nameOf(post)}": ${post.accessNote}`);
    for (const address of new Set(post.oldPaths)) {
      const taken = siteOwnAddress(address);
      if (taken) notes.push(`"${nameOf(post)}": old address ${address} not kept: ${taken}`);
    }
  }
  return notes;
}

/**
 * What the file said of a post: a second run compares it to know whether anything changed. A post
 * for everyone or for paying members digests as it did when a post said only whether it was
 * members-only, so a file imported before the other visibilities is still unchanged.
 */
export function digestOf(post: SourcePost): string {
  const said =
    post.visibility === 'public' || post.visibility === 'members'
      ? Object.fromEntries(
          Object.entries(post).flatMap(([key, value]: [string, unknown]) => {
            if (key === 'tiers') return [];
            if (key === 'visibility') return [['membersOnly', value === 'members']];
            return [[key, value]];
          }),
        )
      : post;
  return createHash('sha256').update(JSON.stringify(said)).digest('hex');
}

/**
 * What a post is known by from one run to the next: the platform's id, within the site the export
 * came from when it says (a WordPress post id is only unique within its site: two sites' exports
 * both have a post 1, and one must never update the other's).
 */
export function itemKeyOf(bundle: Pick<SourceBundle, 'siteUrl'>, post: SourcePost): string {
  const site = bundle.siteUrl?.trim().replace(/\/+$/, '').toLowerCase();
  return site ? `${site} ${post.sourceId}` : post.sourceId;
}

interface ImportItemRow {
  sourceId: string;
  targetId: string;
  digest: string;
  /** The post it became: gone (null) when it no longer exists. */
  postId: number | null;
  /** Changed in the desk since (saved, published, unpublished or deleted by a staff member). */
  editedHere: boolean;
}

export async function readImportItems(pool: pg.Pool, source: ImportSource) {
  const { rows } = await pool.query<ImportItemRow>(
    `SELECT i."sourceId", i."targetId", i."digest", p."id" AS "postId",
        (p."updatedBy" IS NOT NULL OR p."deletedAt" IS NOT NULL) AS "editedHere"
      FROM "import_items" i
      LEFT JOIN "posts" p ON p."id"::text = i."targetId"
      WHERE i."source" = $1 AND i."kind" = 'post'`,
    [source],
  );
  return new Map(rows.map((row) => [row.sourceId, row]));
}

/** Every topic the site has now (tags on its posts), by slug. */
export async function readTopicSlugs(pool: pg.Pool): Promise<Set<string>> {
  const { rows } = await pool.query<{ tag: string }>(
    `SELECT DISTINCT jsonb_array_elements_text("fields"->'tags') AS tag FROM "posts"
      WHERE jsonb_typeof("fields"->'tags') = 'array' AND "deletedAt" IS NULL`,
  );
  return new Set(rows.map((row) => topicSlug(row.tag)));
}

/** A post that is to be written: the file's post, converted, and where it goes. */
export interface Plan {
  post: SourcePost;
  /** What import_items knows it by (itemKeyOf). */
  key: string;
  kind: PostKind;
  counts: ImportCounts;
  digest: string;
  /** The post it became in an earlier run, to update. */
  postId: number | null;
  slug: string;
  /** An article's section, and why that one (for the report's notes). */
  placing: { section: string; how: string } | null;
  markdown: string;
  images: SourceImage[];
  /** The audio and video files it plays (post-media.ts stores them). */
  media: SourceImage[];
}
