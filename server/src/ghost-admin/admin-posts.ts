import type pg from 'pg';
import type { GhostPostInput } from '../../../contract/ghost-admin-api.js';
import { NewPostBodySchema, PostChangeBodySchema } from '../../../contract/post-bodies.js';
import type { PostJson } from '../../../contract/posts.js';
import { topicSlug } from '../../../contract/topics.js';
import { ensureAuthorProfile } from '../content/author-profiles.js';
import { withTransaction } from '../db/transaction.js';
import { createPost, deletePost, updatePost } from '../content/post-editing.js';
import type { CardReader } from '../embeds/card-reader.js';
import { publishPost, unpublishPost } from '../content/post-publishing.js';
import { postJson, readPostRow, type PostRow } from '../content/post-row.js';
import { summaryOf } from '../content/post-summary.js';
import { readPostBody } from '../content/post-validation.js';
import { writeAudit } from '../staff/audit.js';
import { DomainError } from '../domain-error.js';
import type { GhostTier } from '../ghost-api/ghost-tiers.js';
import type { AdminCaller } from './admin-caller.js';
import {
  invalidGhostField,
  readGhostPost,
  readingAfter,
  readingMinutesOf,
  slugFromTitle,
  summaryAfterChange,
  type ReadGhostPost,
} from './ghost-post-input.js';

/**
 * Posts and pages written through Ghost's Admin API (docs/ghost-api.md#admin-api), through the
 * site's own paths: made and saved by the post store (content/post-editing.ts), published,
 * scheduled and unpublished by content/post-publishing.ts, so a post published here is live on
 * its page at once (the content generation moves), keeps its old addresses when its slug
 * changes, and tells webhooks. Ghost's posts are the site's articles; its pages, the site's
 * standalone pages. Every write is in the audit log under the integration's or staff member's name.
 */

export type GhostResource = 'posts' | 'pages';
const kindOf = (resource: GhostResource) => (resource === 'posts' ? 'article' : 'page');

export interface AdminPostSite {
  pool: pg.Pool;
  siteUrl: string;
  /** The sections of articles' names, in the menu's order: a new article goes to the first. */
  articleSections: readonly string[];
  /** Every topic's name by its slug (tags sent as `{slug}`). */
  topicNames: ReadonlyMap<string, string>;
  /** Every tier in Ghost's shape (ghost-api/ghost-tiers.ts): what `tiers` may name. */
  tiers: readonly GhostTier[];
  /** Who an integration's posts are credited to: the first owner with an account, if any. */
  ownerUserId: string | null;
  /** The scheduled posts' job queue. */
  publishAt(postId: number, at: Date): Promise<void>;
  /** Reads the cards a saved body names, as the desk's saves do. */
  cards?: CardReader;
}

/** What a write changed: the post and the content generation to wait for. */
export interface AdminPostWrite {
  id: number;
  generation: number | null;
}

/** The section a new article goes to: the one its first tag names, else the first. */
function sectionFor(tags: readonly string[], sections: readonly string[]): string | undefined {
  for (const tag of tags) {
    const found = sections.find((section) => topicSlug(section) === topicSlug(tag));
    if (found) return found;
  }
  return sections[0];
}

/** A free slug of this kind: the one asked for, else it with -2, -3… */
async function freeSlug(pool: pg.Pool, kind: string, wanted: string): Promise<string> {
  const { rows } = await pool.query<{ slug: string }>(
    `SELECT "slug" FROM "posts" WHERE "kind" = $1 AND ("slug" = $2 OR "slug" LIKE $2 || '-%')`,
    [kind, wanted],
  );
  const taken = new Set(rows.map((row) => row.slug));
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n += 1) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

async function audit(
  site: AdminPostSite,
  caller: AdminCaller,
  action: 'api_post_create' | 'api_post_change',
  after: PostJson,
) {
  await withTransaction(site.pool, (tx) =>
    writeAudit(
      tx,
      { userId: caller.actor.userId, email: caller.label },
      {
        action,
        targetUserId: null,
        before: null,
        after: { id: after.id, kind: after.kind, slug: after.slug, title: after.title },
      },
    ),
  );
}

export async function createGhostPost(
  site: AdminPostSite,
  caller: AdminCaller,
  resource: GhostResource,
  input: GhostPostInput,
): Promise<AdminPostWrite> {
  const read = readGhostPost(input, site);
  if (read.title === undefined) throw invalidGhostField('title', 'is required');
  const kind = kindOf(resource);
  const body = read.body ?? '';
  const reading = readingAfter(read, null) ?? { visibility: 'public', tiers: [] };
  const { visibility } = reading;
  const summary = summaryOf({ title: read.title, body, visibility }, read.excerpt);
  const fields: Record<string, unknown> =
    kind === 'page'
      ? { description: summary }
      : {
          category: sectionFor(read.tags ?? [], site.articleSections),
          summary,
          readingMinutes: readingMinutesOf(body),
          ...(read.tags?.length ? { tags: read.tags } : {}),
        };
  // An integration has no profile of its own: its posts are the site owner's.
  let authors: string[] | undefined;
  if (caller.integrationId && site.ownerUserId) {
    const ownerId = site.ownerUserId;
    const slug = await withTransaction(site.pool, (tx) => ensureAuthorProfile(tx, ownerId));
    if (slug) authors = [slug];
  }
  const draft = readPostBody(NewPostBodySchema, {
    kind,
    slug: await freeSlug(site.pool, kind, read.slug ?? slugFromTitle(read.title)),
    title: read.title,
    body,
    ...reading,
    featureImage: read.featureImage ?? null,
    featureImageAlt: read.featureImage ? (read.featureImageAlt ?? read.title) : null,
    seoTitle: read.seoTitle ?? null,
    seoDescription: read.seoDescription ?? null,
    ...(authors ? { authors } : {}),
    ...fields,
  });
  const created = await createPost(site.pool, caller.actor, draft, site.cards);
  await audit(site, caller, 'api_post_create', created.post);
  const published = await applyStatus(site, caller, created.post, read);
  return { id: created.post.id, generation: published ?? created.generation };
}

/**
 * Publishes, schedules or unpublishes as `read.status` says, through the site's publishing;
 * answers the generation it made, or null when the status stays.
 */
async function applyStatus(
  site: AdminPostSite,
  caller: AdminCaller,
  post: PostJson,
  read: ReadGhostPost,
): Promise<number | null> {
  const wanted = read.status;
  if (wanted === undefined) return null;
  if (wanted === 'draft') {
    if (post.status === 'draft') return null;
    const change = await unpublishPost(site.pool, caller.actor, post.id, {
      version: post.version,
    });
    return change.generation;
  }
  const at =
    wanted === 'scheduled'
      ? (read.publishedAt as Date)
      : (read.publishedAt ?? (post.publishedAt ? new Date(post.publishedAt) : null));
  if (wanted === post.status && read.publishedAt === undefined) return null;
  const result = await publishPost(site.pool, caller.actor, post.id, {
    version: post.version,
    at: at && (wanted === 'scheduled' || at.getTime() <= Date.now()) ? at.toISOString() : null,
  });
  if (result.scheduledFor) await site.publishAt(result.post.id, result.scheduledFor);
  return result.generation;
}

/** The post of this resource by its number; 404 in Ghost's words otherwise. */
export async function readGhostRow(
  pool: pg.Pool,
  resource: GhostResource,
  id: number,
): Promise<PostRow> {
  const row = Number.isSafeInteger(id) ? await readPostRow(pool, id) : null;
  const isPage = row?.kind === 'page';
  if (!row || isPage !== (resource === 'pages')) {
    throw new DomainError(
      404,
      'not_found',
      `${resource === 'posts' ? 'Post' : 'Page'} not found.`,
      {
        ghostType: 'NotFoundError',
      },
    );
  }
  return row;
}

/**
 * Saves a change: refused with 409 UpdateCollisionError unless it names the `updated_at` the
 * post has now (what Ghost's clients read and send back), then content, then status.
 */
export async function editGhostPost(
  site: AdminPostSite,
  caller: AdminCaller,
  resource: GhostResource,
  id: number,
  input: GhostPostInput,
): Promise<AdminPostWrite> {
  const row = await readGhostRow(site.pool, resource, id);
  const read = readGhostPost(input, site);
  if (!read.updatedAt) throw invalidGhostField('updated_at', 'is required: the one you read');
  if (new Date(read.updatedAt).getTime() !== row.updatedAt.getTime()) {
    throw new DomainError(
      409,
      'edit_conflict',
      'Saving failed! Someone else is editing this post.',
      { ghostType: 'UpdateCollisionError' },
    );
  }
  const change: Record<string, unknown> = { version: row.version };
  if (read.title !== undefined) change.title = read.title;
  if (read.slug !== undefined) change.slug = read.slug;
  if (read.body !== undefined) {
    change.body = read.body;
    if (row.kind === 'article') change.readingMinutes = readingMinutesOf(read.body);
  }
  Object.assign(change, readingAfter(read, row));
  if (read.featureImage !== undefined) {
    change.featureImage = read.featureImage;
    change.featureImageAlt = read.featureImage
      ? (read.featureImageAlt ?? row.featureImageAlt ?? read.title ?? row.title)
      : null;
  } else if (read.featureImageAlt !== undefined && row.featureImage) {
    change.featureImageAlt = read.featureImageAlt ?? row.title;
  }
  if (read.seoTitle !== undefined) change.seoTitle = read.seoTitle;
  if (read.seoDescription !== undefined) change.seoDescription = read.seoDescription;
  Object.assign(change, summaryAfterChange(row, read));
  if (read.tags !== undefined && row.kind !== 'page') change.tags = read.tags;
  let post: PostJson | null = null;
  let generation: number | null = null;
  if (Object.keys(change).length > 1) {
    const saved = await updatePost(
      site.pool,
      caller.actor,
      row.id,
      readPostBody(PostChangeBodySchema, change),
      site.cards,
    );
    post = saved.post;
    generation = saved.generation;
    await audit(site, caller, 'api_post_change', post);
  }
  const current = post ?? (await readGhostPostJson(site.pool, row.id));
  const moved = await applyStatus(site, caller, current, read);
  return { id: row.id, generation: moved ?? generation };
}

async function readGhostPostJson(pool: pg.Pool, id: number): Promise<PostJson> {
  const row = await readPostRow(pool, id);
  if (!row)
    throw new DomainError(404, 'not_found', 'Post not found.', { ghostType: 'NotFoundError' });
  return postJson(row);
}

/** Deletes the post (as the desk's delete: kept, listed nowhere, its address 410). */
export async function deleteGhostPost(
  site: AdminPostSite,
  caller: AdminCaller,
  resource: GhostResource,
  id: number,
): Promise<number> {
  await readGhostRow(site.pool, resource, id);
  if (caller.actor.role !== 'owner' && !caller.integrationId) {
    throw new DomainError(403, 'owners_only', 'Only an owner deletes a post.', {
      ghostType: 'NoPermissionError',
    });
  }
  return deletePost(site.pool, caller.actor, id);
}
