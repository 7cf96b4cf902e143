import { Readable } from 'node:stream';
import type pg from 'pg';
import { topicSlug } from '../../../contract/topics.js';
import type { PostKind } from '../../../contract/posts.js';
import { profileNameSql } from '../content/author-profiles.js';
import type { StaffConfig } from '../config.js';
import type { PostRow } from '../content/post-row.js';
import type { Tx } from '../db/transaction.js';
import { readCardReadings } from '../embeds/card-store.js';
import { arrayText, COUNT_GHOST_MEMBERS_SQL, ghostMembersText } from './ghost-export-members.js';
import { readExportedTiers, tiersTables } from './ghost-export-tiers.js';
import {
  cohortBlockText,
  commentsText,
  readExportedSections,
  resourcesHtml,
  sectionOf,
} from './ghost-export-cohort.js';
import { absolute, htmlOfMarkdown, lexicalOfHtml, type AddressOf } from './ghost-html.js';
import { ghostId, ghostTierId, ghostUuid } from './ghost-ids.js';
import { ghostVisibilityOf } from './ghost-visibility.js';

/**
 * The site as a Ghost JSON export (Ghost's documented import format: `{db: [{meta, data}]}`), so a
 * publisher can leave with everything: articles, newsletter issues, campaigns, boycotts and
 * resource lists as Ghost posts, page posts (the site's screens' texts too: home, policies) as
 * pages (drafts and scheduled ones too, never deleted ones), each post's section as its primary
 * tag and its topics as the other tags, the staff who
 * wrote them as users (the owner at least: Ghost's importer needs one), and every account as a
 * member with its name, note, labels, newsletter consent, Stripe customers and comp, and every
 * newsletter subscriber without an account as a member too (ghost-export-members.ts). A post's HTML
 * is drawn from its Markdown with the same parser the site uses (server/src/content/
 * markdown-to-tree.ts), and carried twice: as `html`, and as a `lexical` document whose one card
 * holds it (what Ghost 5 edits). Restricted posts keep their whole text: this is the owner's own
 * export. Who may read each is in Ghost's words (ghost-visibility.ts), a tier's post naming its
 * tiers in `posts_products`; the tiers are Ghost's `products` with their benefits
 * (ghost-export-tiers.ts), and each member with access now names theirs in `members_products`.
 * What Ghost cannot hold (sections, kinds and their fields, guests' names on comments) is in a
 * `cohort` block beside `data` that Ghost ignores and a Cohort import reads back, and comments are
 * in Ghost's `comments` table (ghost-export-cohort.ts). Images are captioned Ghost image cards; in
 * a zip (ghost-export-zip.ts), uploads are addressed inside it, `__GHOST_URL__/content/images/…`.
 *
 * The text is produced a batch of rows at a time (`ghostExportChunks`), so a large site is never
 * held in memory whole; only the small lists (tags, users, the links between rows) are kept until
 * their turn comes. Ids are derived from the site's address and the row's own id, so two exports of
 * the same site name the same posts and members the same way (an importer matching by id finds
 * them again).
 */

export interface GhostExportOptions {
  siteUrl: string;
  siteName: string;
  /** The site's currency (MEMBERSHIP_CURRENCY), for a tier without plans (else another's). */
  currency?: string;
  staff: StaffConfig;
  /** What "now" is for comps and memberships (tests); the clock otherwise. */
  now?: Date;
  /** How the site's own addresses are written (the zip's: its uploads inside it); else absolute. */
  addressOf?: AddressOf;
}

/** What the export holds, for the audit log and the command's summary. */
export interface GhostExportCounts {
  posts: number;
  pages: number;
  members: number;
}

/** The post kinds exported, and what Ghost calls each (the `cohort` block says which kind). */
const EXPORTED_KINDS: Record<PostKind, 'post' | 'page'> = {
  article: 'post',
  newsletter: 'post',
  campaign: 'post',
  boycott: 'post',
  resources: 'post',
  page: 'page',
};
const KINDS = Object.keys(EXPORTED_KINDS);

/** Newsletter issues carry this internal tag (Ghost's `#` tags are not shown to readers). */
const NEWSLETTER_TAG = '#newsletter';

const BATCH_SIZE = 200;

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/** A post as the export reads it: the site's own row of it, when it was made, and by whom. */
type ExportedPostRow = Omit<PostRow, 'version' | 'submittedAt'> & {
  createdAt: Date;
  authorId: string | null;
  authorEmail: string | null;
  authorName: string | null;
  /** Its authors (post_authors), in byline order; `email` null for one with no account. */
  credits: { slug: string; name: string; email: string | null }[];
  /** With visibility `tiers`: its tiers' ids, in the tiers' order. */
  tierIds: number[];
};

interface GhostUser {
  id: string;
  name: string;
  slug: string;
  email: string;
  status: 'active';
  created_at: string;
  updated_at: string;
}

/** The Ghost role each kind of staff member gets (other authors: Contributor). */
const ROLE_NAMES = ['Administrator', 'Editor', 'Author', 'Contributor'] as const;
type RoleName = (typeof ROLE_NAMES)[number];

function roleOf(staff: StaffConfig, email: string): RoleName {
  if (staff.owners.includes(email)) return 'Administrator';
  if (staff.editors.includes(email)) return 'Editor';
  if (staff.writers.includes(email)) return 'Author';
  return 'Contributor';
}

const textField = (fields: Record<string, unknown>, name: string): string | null => {
  const value = fields[name];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
};

const tagsOf = (fields: Record<string, unknown>): string[] =>
  Array.isArray(fields.tags) ? fields.tags.filter((tag) => typeof tag === 'string') : [];

/** Counts what an export of the site now would hold. */
export async function countGhostExport(db: Tx): Promise<GhostExportCounts> {
  const { rows } = await db.query<GhostExportCounts>(
    `SELECT
       (SELECT count(*)::int FROM posts WHERE "deletedAt" IS NULL AND kind <> 'page') AS posts,
       (SELECT count(*)::int FROM posts WHERE "deletedAt" IS NULL AND kind = 'page') AS pages,
       (${COUNT_GHOST_MEMBERS_SQL}) AS members`,
  );
  const [counts] = rows;
  if (!counts) throw new Error('The export could not count the posts and members');
  return counts;
}

/** The export's JSON text, a piece at a time. */
export async function* ghostExportChunks(
  pool: pg.Pool,
  options: GhostExportOptions,
): AsyncGenerator<string> {
  const { siteUrl } = options;
  const addressOf = options.addressOf ?? ((url: string) => absolute(siteUrl, url));
  const now = options.now ?? new Date();
  const id = (kind: string, key: string | number) => ghostId(siteUrl, kind, key);

  const users = new Map<string, GhostUser & { role: RoleName }>();
  const userOf = (email: string, name: string | null, createdAt: Date, slug?: string) => {
    let user = users.get(email);
    if (!user) {
      const local = email.split('@')[0] ?? email;
      user = {
        id: id('user', email),
        name: name?.trim() || local,
        slug: slug ?? (topicSlug(name?.trim() || local) || id('user', email)),
        email,
        status: 'active',
        created_at: createdAt.toISOString(),
        updated_at: createdAt.toISOString(),
        role: roleOf(options.staff, email),
      };
      users.set(email, user);
    }
    // An author's profile names them (`/authors/<slug>`): that slug, once a post credits them.
    if (slug) user.slug = slug;
    return user;
  };
  const owner = await readOwner(pool, options);
  const ownerUser = userOf(owner.email, owner.name, owner.createdAt);
  // Every reading kept: the table holds only addresses posts named, each once.
  const cards = await readCardReadings(pool);

  const descriptions = new Map(
    (
      await pool.query<{ slug: string; description: string }>(
        'SELECT slug, description FROM topics',
      )
    ).rows.map((row) => [row.slug, row.description]),
  );
  const tags = new Map<
    string,
    { id: string; name: string; slug: string; createdAt: Date; description?: string | null }
  >();
  const postsTags: { id: string; post_id: string; tag_id: string; sort_order: number }[] = [];
  const postsAuthors: { id: string; post_id: string; author_id: string; sort_order: number }[] = [];
  const postsProducts: { id: string; post_id: string; product_id: string; sort_order: number }[] =
    [];
  const tiers = await readExportedTiers(pool, options.currency);
  const sections = await readExportedSections(pool);
  const postsMeta: {
    id: string;
    post_id: string;
    meta_title: string | null;
    meta_description: string | null;
    feature_image_alt: string | null;
  }[] = [];

  yield `{"db":[{"meta":${JSON.stringify({ exported_on: now.getTime(), version: '5.x' })},"data":{`;
  yield '"posts":[';
  let separator = '';
  let after = 0;
  for (;;) {
    const { rows } = await pool.query<ExportedPostRow>(
      `SELECT p.id, p.kind, p.slug, p.status, p.visibility, p.title, p.fields, p.body,
              ARRAY(SELECT t.id FROM tiers t WHERE t.id = ANY(p."tierIds")
                    ORDER BY t.position, t.id) AS "tierIds",
              p."publishedAt", p."featureImage", p."featureImageAlt", p."seoTitle",
              p."seoDescription", p."createdAt", p."updatedAt",
              u.id AS "authorId", u.email AS "authorEmail", u.name AS "authorName",
              ARRAY(SELECT json_build_object('slug', ap.slug, 'email', au.email,
                        'name', ${profileNameSql('ap', 'au')})
                      FROM post_authors pa JOIN author_profiles ap ON ap.id = pa."authorId"
                        LEFT JOIN users au ON au.id = ap."userId"
                      WHERE pa."postId" = p.id ORDER BY pa.position) AS credits
       FROM posts p LEFT JOIN users u ON u.id = p."createdBy" AND u.email IS NOT NULL
       WHERE p."deletedAt" IS NULL AND p.kind = ANY($1::text[]) AND p.id > $2
       ORDER BY p.id LIMIT $3`,
      [KINDS, after, BATCH_SIZE],
    );
    for (const row of rows) {
      const postId = id('post', row.id);
      const html =
        row.kind === 'resources'
          ? resourcesHtml(row.fields)
          : htmlOfMarkdown(row.body, siteUrl, cards, addressOf);
      const excerpt =
        textField(row.fields, 'summary') ?? textField(row.fields, 'description') ?? null;
      // Its authors as Ghost users; one with no account here (imported from elsewhere) gets an
      // address that can receive nothing (`.invalid`), which Ghost's importer needs. A post
      // credited to nobody is its writer's, else the owner's.
      const credited = row.credits.map((credit) =>
        userOf(
          credit.email ?? `${credit.slug}@authors.invalid`,
          credit.name,
          row.createdAt,
          credit.slug,
        ),
      );
      const authors =
        credited.length > 0
          ? credited
          : [
              row.authorEmail !== null
                ? userOf(row.authorEmail, row.authorName, row.createdAt)
                : ownerUser,
            ];
      const [author = ownerUser] = authors;
      // Its section first: Ghost's primary tag, what its themes show and its URLs can use.
      const section = sectionOf(sections, row.kind, row.fields);
      const names = [
        ...(section ? [section.name] : []),
        ...tagsOf(row.fields),
        ...(row.kind === 'newsletter' ? [NEWSLETTER_TAG] : []),
      ];
      names.forEach((name, order) => {
        const isSection = order === 0 && section !== null;
        const slug = isSection
          ? section.slug
          : name.startsWith('#')
            ? `hash-${topicSlug(name)}`
            : topicSlug(name);
        let tag = tags.get(slug);
        if (!tag) {
          const description = isSection ? section.description || null : undefined;
          tag = { id: id('tag', slug), name, slug, createdAt: row.createdAt, description };
          tags.set(slug, tag);
        }
        postsTags.push({
          id: id('post-tag', `${row.id}:${slug}`),
          post_id: postId,
          tag_id: tag.id,
          sort_order: order,
        });
      });
      authors.forEach((credit, order) =>
        postsAuthors.push({
          id: id('post-author', order === 0 ? row.id : `${row.id}:${credit.slug}`),
          post_id: postId,
          author_id: credit.id,
          sort_order: order,
        }),
      );
      row.tierIds.forEach((tierId, order) =>
        postsProducts.push({
          id: id('post-product', `${row.id}:${tierId}`),
          post_id: postId,
          product_id: ghostTierId(siteUrl, tierId),
          sort_order: order,
        }),
      );
      postsMeta.push({
        id: id('post-meta', row.id),
        post_id: postId,
        meta_title: row.seoTitle,
        meta_description: row.seoDescription,
        feature_image_alt: row.featureImageAlt,
      });
      const post = {
        id: postId,
        uuid: ghostUuid(siteUrl, 'post', row.id),
        title: row.title,
        slug: row.slug,
        mobiledoc: null,
        lexical: lexicalOfHtml(html),
        html,
        feature_image: row.featureImage ? addressOf(row.featureImage) : null,
        featured: false,
        type: EXPORTED_KINDS[row.kind] ?? 'post',
        status: row.status,
        visibility: ghostVisibilityOf(row.visibility),
        author_id: author.id,
        created_by: author.id,
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
        published_at: row.status === 'draft' ? null : iso(row.publishedAt),
        custom_excerpt: excerpt,
        meta_title: row.seoTitle,
        meta_description: row.seoDescription,
        codeinjection_head: null,
        codeinjection_foot: null,
        canonical_url: null,
      };
      yield separator + JSON.stringify(post);
      separator = ',';
    }
    const last = rows.at(-1);
    if (rows.length < BATCH_SIZE || !last) break;
    after = last.id;
  }
  yield ']';
  yield* arrayText('posts_meta', postsMeta);
  yield* arrayText(
    'tags',
    [...tags.values()].map((tag) => ({
      id: tag.id,
      name: tag.name,
      slug: tag.slug,
      description:
        tag.description !== undefined ? tag.description : (descriptions.get(tag.slug) ?? null),
      visibility: tag.name.startsWith('#') ? 'internal' : 'public',
      created_at: tag.createdAt.toISOString(),
      updated_at: tag.createdAt.toISOString(),
    })),
  );
  yield* arrayText('posts_tags', postsTags);
  yield* arrayText(
    'users',
    [...users.values()].map(({ role: _role, ...user }) => user),
  );
  yield* arrayText('posts_authors', postsAuthors);
  const tierTables = tiersTables(siteUrl, tiers, now);
  yield* arrayText('products', tierTables.products);
  yield* arrayText('benefits', tierTables.benefits);
  yield* arrayText('products_benefits', tierTables.products_benefits);
  yield* arrayText('posts_products', postsProducts);
  yield* arrayText(
    'roles',
    ROLE_NAMES.map((name) => ({ id: id('role', name), name, description: name })),
  );
  yield* arrayText(
    'roles_users',
    [...users.values()].map((user) => ({
      id: id('role-user', user.email),
      role_id: id('role', user.role),
      user_id: user.id,
    })),
  );
  yield* ghostMembersText(pool, siteUrl, now);
  yield ',';
  yield* commentsText(pool, siteUrl, KINDS);
  yield '}';
  yield* cohortBlockText(pool, siteUrl, KINDS);
  yield '}]}';
}

/** The owner Ghost's importer needs: the first owner with an account, else one named for them. */
async function readOwner(
  pool: pg.Pool,
  options: GhostExportOptions,
): Promise<{ email: string; name: string | null; createdAt: Date }> {
  const { rows } = await pool.query<{ email: string; name: string | null; createdAt: Date }>(
    `SELECT email, name, "createdAt" FROM users WHERE email = ANY($1::text[])
     ORDER BY array_position($1::text[], email) LIMIT 1`,
    [options.staff.owners],
  );
  const [found] = rows;
  if (found) return found;
  const email = options.staff.owners[0] ?? `owner@${new URL(options.siteUrl).hostname}`;
  return { email, name: options.siteName, createdAt: new Date() };
}

/** The export as a stream of UTF-8 text, for a download or a file. */
export function ghostExportStream(pool: pg.Pool, options: GhostExportOptions): Readable {
  return Readable.from(ghostExportChunks(pool, options), { objectMode: false });
}
