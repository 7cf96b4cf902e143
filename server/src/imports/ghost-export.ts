import { Readable } from 'node:stream';
import type pg from 'pg';
import { topicSlug } from '../../../contract/topics.js';
import { profileNameSql } from '../content/author-profiles.js';
import type { StaffConfig } from '../config.js';
import type { PostRow } from '../content/post-row.js';
import type { Tx } from '../db/transaction.js';
import { readCardReadings } from '../embeds/card-store.js';
import { isMembershipActive, type MembershipState } from '../memberships/memberships.js';
import { readExportedTiers, tiersTables } from './ghost-export-tiers.js';
import { absolute, htmlOfMarkdown, lexicalOfHtml } from './ghost-html.js';
import { ghostId, ghostTierId, ghostUuid } from './ghost-ids.js';
import { ghostVisibilityOf } from './ghost-visibility.js';

/**
 * The site as a Ghost JSON export (Ghost's documented import format: `{db: [{meta, data}]}`), so a
 * publisher can leave with everything: articles and newsletter issues as Ghost posts, page posts as
 * pages (drafts and scheduled ones too, never deleted ones), their topics as tags, the staff who
 * wrote them as users (the owner at least: Ghost's importer needs one), and every account as a
 * member with its name, note, labels, newsletter consent, Stripe customers and comp. A post's HTML
 * is drawn from its Markdown with the same parser the site uses (server/src/content/
 * markdown-to-tree.ts), and carried twice: as `html`, and as a `lexical` document whose one card
 * holds it (what Ghost 5 edits). Restricted posts keep their whole text: this is the owner's own
 * export. Who may read each is in Ghost's words (ghost-visibility.ts), a tier's post naming its
 * tiers in `posts_products`; the tiers are Ghost's `products` with their benefits
 * (ghost-export-tiers.ts), and each member with access now names theirs in `members_products`.
 * Campaigns, boycotts and resource lists have no Ghost counterpart and are left out.
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
}

/** What the export holds, for the audit log and the command's summary. */
export interface GhostExportCounts {
  posts: number;
  pages: number;
  members: number;
}

/** The post kinds exported, and what Ghost calls each. */
const EXPORTED_KINDS: Record<string, 'post' | 'page'> = {
  article: 'post',
  newsletter: 'post',
  page: 'page',
};

/** Newsletter issues carry this internal tag (Ghost's `#` tags are not shown to readers). */
const NEWSLETTER_TAG = '#newsletter';

const BATCH_SIZE = 200;
const MEMBER_BATCH_SIZE = 1000;

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

interface MemberRow {
  id: string;
  email: string;
  name: string | null;
  note: string | null;
  labels: string[];
  createdAt: Date;
  updatedAt: Date;
  plan: MembershipState['plan'] | null;
  status: string | null;
  expiresAt: Date | null;
  tierId: number | null;
  customerIds: string[];
  compUntil: Date | null;
  newsletter: string | null;
}

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

/** A JSON array written one element at a time, inside the export's text. */
function* arrayText(name: string, rows: Iterable<unknown>): Generator<string> {
  yield `,${JSON.stringify(name)}:[`;
  let separator = '';
  for (const row of rows) {
    yield separator + JSON.stringify(row);
    separator = ',';
  }
  yield ']';
}

/** Counts what an export of the site now would hold. */
export async function countGhostExport(db: Tx): Promise<GhostExportCounts> {
  const { rows } = await db.query<GhostExportCounts>(
    `SELECT
       (SELECT count(*)::int FROM posts WHERE "deletedAt" IS NULL AND kind IN ('article', 'newsletter')) AS posts,
       (SELECT count(*)::int FROM posts WHERE "deletedAt" IS NULL AND kind = 'page') AS pages,
       (SELECT count(*)::int FROM users WHERE email IS NOT NULL) AS members`,
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
  const tags = new Map<string, { id: string; name: string; slug: string; createdAt: Date }>();
  const postsTags: { id: string; post_id: string; tag_id: string; sort_order: number }[] = [];
  const postsAuthors: { id: string; post_id: string; author_id: string; sort_order: number }[] = [];
  const postsProducts: { id: string; post_id: string; product_id: string; sort_order: number }[] =
    [];
  const tiers = await readExportedTiers(pool, options.currency);
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
      [Object.keys(EXPORTED_KINDS), after, BATCH_SIZE],
    );
    for (const row of rows) {
      const postId = id('post', row.id);
      const html = htmlOfMarkdown(row.body, siteUrl, cards);
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
      const names = [...tagsOf(row.fields), ...(row.kind === 'newsletter' ? [NEWSLETTER_TAG] : [])];
      names.forEach((name, order) => {
        const slug = name.startsWith('#') ? `hash-${topicSlug(name)}` : topicSlug(name);
        let tag = tags.get(slug);
        if (!tag) {
          tag = { id: id('tag', slug), name, slug, createdAt: row.createdAt };
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
        feature_image: row.featureImage ? absolute(siteUrl, row.featureImage) : null,
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
      description: descriptions.get(tag.slug) ?? null,
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
  yield* membersText(pool, siteUrl, now);
  yield '}}]}';
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

/**
 * The members, with their labels and Stripe customers. Ghost's statuses: `comped` for a comp now
 * (until its end), and for a membership nobody pays Stripe for (a gift, a solidarity seat: until
 * it ends); `paid` for a membership a Stripe customer pays; `free` for everyone else. A paid or
 * comped member names the tier of their access now in `members_products` (a comp's until its end).
 */
async function* membersText(pool: pg.Pool, siteUrl: string, now: Date): AsyncGenerator<string> {
  const id = (kind: string, key: string | number) => ghostId(siteUrl, kind, key);
  const labels = new Map<string, { id: string; name: string; slug: string }>();
  const membersLabels: { id: string; member_id: string; label_id: string; sort_order: number }[] =
    [];
  const customers: {
    id: string;
    member_id: string;
    customer_id: string;
    email: string;
    created_at: string;
  }[] = [];
  const membersProducts: {
    id: string;
    member_id: string;
    product_id: string;
    sort_order: number;
    expiry_at: string | null;
  }[] = [];
  yield ',"members":[';
  let separator = '';
  let after: string | null = null;
  for (;;) {
    const { rows }: { rows: MemberRow[] } = await pool.query<MemberRow>(
      `SELECT u.id, u.email, u.name, u.note, u.labels, u."createdAt", u."updatedAt",
              m.plan::text AS plan, m.status, m."expiresAt", m."tierId",
              ARRAY(SELECT c.id FROM stripe_customers c WHERE c."userId" = u.id
                    ORDER BY c."createdAt") AS "customerIds",
              (SELECT max(e."periodEnd") FROM entitlements e
               WHERE e."userId" = u.id AND e.source = 'comp' AND e.state = 'active'
                 AND e."periodStart" <= $3 AND e."periodEnd" > $3) AS "compUntil",
              (SELECT n.state::text FROM newsletter_subscribers n WHERE n."userId" = u.id)
                AS newsletter
       FROM users u LEFT JOIN memberships m ON m."userId" = u.id
       WHERE u.email IS NOT NULL AND ($1::uuid IS NULL OR u.id > $1::uuid)
       ORDER BY u.id LIMIT $2`,
      [after, MEMBER_BATCH_SIZE, now],
    );
    for (const row of rows) {
      const memberId = id('member', row.id);
      const membership =
        row.plan && row.status && row.expiresAt
          ? { plan: row.plan, status: row.status, expiresAt: row.expiresAt }
          : null;
      const active = isMembershipActive(membership, now);
      let status: 'free' | 'comped' | 'paid' = 'free';
      let compedUntil: Date | null = null;
      if (row.compUntil) {
        status = 'comped';
        compedUntil = row.compUntil;
      } else if (active && row.customerIds.length > 0) {
        status = 'paid';
      } else if (active) {
        status = 'comped';
        compedUntil = membership?.expiresAt ?? null;
      }
      if (status !== 'free' && row.tierId !== null) {
        membersProducts.push({
          id: id('member-product', row.id),
          member_id: memberId,
          product_id: ghostTierId(siteUrl, row.tierId),
          sort_order: 0,
          expiry_at: iso(compedUntil),
        });
      }
      row.labels.forEach((name, order) => {
        const slug = topicSlug(name) || id('label', name);
        let label = labels.get(slug);
        if (!label) {
          label = { id: id('label', slug), name, slug };
          labels.set(slug, label);
        }
        membersLabels.push({
          id: id('member-label', `${row.id}:${slug}`),
          member_id: memberId,
          label_id: label.id,
          sort_order: order,
        });
      });
      for (const customerId of row.customerIds) {
        customers.push({
          id: id('member-customer', customerId),
          member_id: memberId,
          customer_id: customerId,
          email: row.email,
          created_at: row.createdAt.toISOString(),
        });
      }
      const member = {
        id: memberId,
        uuid: ghostUuid(siteUrl, 'member', row.id),
        email: row.email,
        name: row.name,
        note: row.note,
        subscribed: row.newsletter === 'confirmed',
        status,
        comped_until: iso(compedUntil),
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
      };
      yield separator + JSON.stringify(member);
      separator = ',';
    }
    const last = rows.at(-1);
    if (rows.length < MEMBER_BATCH_SIZE || !last) break;
    after = last.id;
  }
  yield ']';
  const stamp = now.toISOString();
  yield* arrayText(
    'labels',
    [...labels.values()].map((label) => ({ ...label, created_at: stamp, updated_at: stamp })),
  );
  yield* arrayText('members_labels', membersLabels);
  yield* arrayText('members_stripe_customers', customers);
  yield* arrayText('members_products', membersProducts);
}

/** The export as a stream of UTF-8 text, for a download or a file. */
export function ghostExportStream(pool: pg.Pool, options: GhostExportOptions): Readable {
  return Readable.from(ghostExportChunks(pool, options), { objectMode: false });
}
