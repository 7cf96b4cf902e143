import type pg from 'pg';
import type { z } from 'zod';
import {
  KINDS_WITH_PAGES,
  PAGE_SCREENS,
  POST_KINDS,
  postPath,
  type PostJson,
  type PostKind,
  type PostStatus,
} from '../../../contract/posts.js';
import {
  postCommonSchema,
  postFieldSchemas,
  publishTimeSchema,
} from '../../../contract/post-fields.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { writeAudit, type AuditAction } from '../desk/audit.js';
import type { Staff } from '../desk/staff.js';
import { HttpError } from '../http/errors.js';
import { contentChanged } from './content-changes.js';
import { findNulCharacter, NUL_MESSAGE } from './find-nul.js';
import { findMarkdownProblems } from './markdown-to-tree.js';
import { POST_COLUMNS, isoDay, keepRevision, postJson, type PostRow } from './posts.js';

/**
 * The desk's posts (decision 16): every change in one transaction that checks the version the
 * writer saw (a stale one is a 409 with the post as it is now), keeps what it replaces as a
 * revision, writes the audit entry where one is due, and, when what the site shows changes, says
 * so (contentChanged) and answers the content generation that change made. A draft may be
 * unfinished; a post that is or goes live must be whole.
 */

/** Who is acting: the staff member, as the audit log and the revisions name them. */
export type Actor = Pick<Staff, 'userId' | 'email' | 'role'>;

/** The members of a post's JSON the server keeps: sent back unchanged, they are ignored. */
const SERVER_KEPT = new Set(['id', 'updatedAt', 'path', 'submittedAt', 'version', 'kind']);
/** Changed only by publishing and unpublishing, never by a save. */
const LIFECYCLE = new Set(['status', 'publishedAt']);
const COMMON = new Set(Object.keys(postCommonSchema.shape));

export interface PostFilter {
  kind?: PostKind;
  status?: PostStatus;
  /** Words in the title, the slug or the body. */
  text?: string;
  limit: number;
}

/** A post after a change, and the content generation it made (null: the site shows nothing new). */
export interface PostChange {
  post: PostJson;
  generation: number | null;
}

export interface RevisionJson {
  version: number;
  savedAt: string;
  savedByEmail: string | null;
  title: string;
  status: string;
}

const notFound = (id: number) => new HttpError(404, 'post_not_found', `There is no post ${id}.`);

/** Every post not deleted, newest change first, as the desk lists them. */
export async function listPosts(pool: pg.Pool, filter: PostFilter): Promise<PostJson[]> {
  const words = filter.text?.trim() ?? '';
  if (findNulCharacter(words) !== null) {
    throw new HttpError(400, 'invalid_request', `q: ${NUL_MESSAGE}`);
  }
  const { rows } = await pool.query<PostRow>(
    `SELECT ${POST_COLUMNS} FROM "posts"
      WHERE "deletedAt" IS NULL
        AND ($1::text IS NULL OR "kind" = $1)
        AND ($2::text IS NULL OR "status" = $2)
        AND ($3 = '' OR "title" ILIKE $4 OR "slug" ILIKE $4 OR "body" ILIKE $4)
      ORDER BY "updatedAt" DESC, "id" DESC
      LIMIT $5`,
    [filter.kind ?? null, filter.status ?? null, words, `%${escapeLike(words)}%`, filter.limit],
  );
  return rows.map(postJson);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function getPost(pool: Pick<pg.Pool, 'query'>, id: number): Promise<PostJson> {
  const row = await readRow(pool, id);
  if (!row) throw notFound(id);
  return postJson(row);
}

async function readRow(db: Pick<pg.Pool, 'query'>, id: number, lock = false) {
  const { rows } = await db.query<PostRow & { deletedAt: Date | null }>(
    `SELECT ${POST_COLUMNS}, "deletedAt" FROM "posts" WHERE "id" = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [id],
  );
  const row = rows[0];
  return row && !row.deletedAt ? row : null;
}

/** What a request body says about a post: its columns and its kind's fields, checked. */
interface PostChanges {
  common: Partial<z.infer<typeof postCommonSchema>>;
  fields: Record<string, unknown>;
  /** Fields sent as null: taken off the post (an optional field such as a page's `template`). */
  removed?: string[];
}

/** A 400 naming each field that is wrong, in one line. */
function invalid(problems: { field: string; message: string }[]): HttpError {
  const text = problems.map(({ field, message }) => `${field}: ${message}`).join('; ');
  return new HttpError(400, 'invalid_post', text);
}

function zodProblems(error: z.ZodError, input: Record<string, unknown>) {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: key, message: 'is not a known field' }));
    }
    const field = issue.path.join('.') || 'body';
    const missing = issue.path.length === 1 && input[String(issue.path[0])] === undefined;
    return [{ field, message: missing ? 'is required' : issue.message }];
  });
}

/**
 * Splits a request body into the columns and the kind's fields and checks their types. The
 * members the server keeps (id, version…) are ignored; status and publishedAt are refused unless
 * they say what the post already says (publish and unpublish change them).
 */
function readChanges(
  kind: PostKind,
  body: Record<string, unknown>,
  current: PostRow | null,
): PostChanges {
  const nul = findNulCharacter(body);
  if (nul !== null) throw invalid([{ field: nul, message: NUL_MESSAGE }]);
  const common: Record<string, unknown> = {};
  const fields: Record<string, unknown> = {};
  const removed: string[] = [];
  const problems: { field: string; message: string }[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (SERVER_KEPT.has(key)) continue;
    if (LIFECYCLE.has(key)) {
      const now =
        key === 'status'
          ? (current?.status ?? 'draft')
          : (current?.publishedAt?.toISOString() ?? null);
      if (value !== now) {
        problems.push({ field: key, message: 'is changed by publishing or unpublishing the post' });
      }
      continue;
    }
    if (COMMON.has(key)) common[key] = value;
    else if (value === null && key in postFieldSchemas[kind].shape) removed.push(key);
    else fields[key] = value;
  }
  const commonResult = postCommonSchema.partial().safeParse(common);
  if (!commonResult.success) problems.push(...zodProblems(commonResult.error, common));
  const fieldsResult = postFieldSchemas[kind].partial().safeParse(fields);
  if (!fieldsResult.success) problems.push(...zodProblems(fieldsResult.error, fields));
  if (problems.length > 0) throw invalid(problems);
  return {
    common: commonResult.data ?? {},
    // Only what was sent: zod's defaults are for a whole post, applied when it goes live.
    fields: Object.fromEntries(
      Object.keys(fields).map((key) => [key, (fieldsResult.data as Record<string, unknown>)[key]]),
    ),
    removed,
  };
}

/** A post as it will be after a change: the current one with the changes over it. */
interface Candidate {
  kind: PostKind;
  slug: string;
  title: string;
  body: string;
  visibility: 'public' | 'members';
  featureImage: string | null;
  featureImageAlt: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  fields: Record<string, unknown>;
}

function merge(kind: PostKind, current: PostRow | null, changes: PostChanges): Candidate {
  const removed = new Set(changes.removed ?? []);
  const fields = Object.fromEntries(
    Object.entries({ ...(current?.fields ?? {}), ...changes.fields }).filter(
      ([key]) => !removed.has(key),
    ),
  );
  let title = changes.common.title ?? current?.title ?? '';
  // A resource group's title is its heading, `category`: either name sets both.
  if (kind === 'resources') {
    if (changes.common.title === undefined && typeof changes.fields.category === 'string') {
      title = changes.fields.category;
    }
    fields.category = title;
  }
  const slug = changes.common.slug ?? current?.slug ?? slugFrom(title);
  return {
    kind,
    slug,
    title,
    body: changes.common.body ?? current?.body ?? '',
    visibility: changes.common.visibility ?? current?.visibility ?? 'public',
    featureImage: pick(changes.common.featureImage, current?.featureImage),
    featureImageAlt: pick(changes.common.featureImageAlt, current?.featureImageAlt),
    seoTitle: pick(changes.common.seoTitle, current?.seoTitle),
    seoDescription: pick(changes.common.seoDescription, current?.seoDescription),
    fields,
  };
}

const pick = (next: string | null | undefined, now: string | null | undefined) =>
  next === undefined ? (now ?? null) : next;

/** A slug from a title: "Rent vs. Buy, in 2026" → `rent-vs-buy-in-2026`. */
export function slugFrom(title: string): string {
  return (
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      // "Next Month’s" is next-months, not next-month-s.
      .replace(/['’]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80)
      .replace(/-+$/, '')
  );
}

/**
 * Checks what every post needs (a title, a slug that is a slug and free) and, when the post is
 * or goes live, everything its kind needs: each field, and the body's rules.
 */
async function checkCandidate(db: Tx, post: Candidate, id: number | null, whole: boolean) {
  const problems: { field: string; message: string }[] = [];
  if (post.title.trim() === '') problems.push({ field: 'title', message: 'is required' });
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(post.slug)) {
    problems.push({ field: 'slug', message: 'must be lower-case words joined by hyphens' });
  }
  if (post.kind === 'page' && !(post.slug in PAGE_SCREENS)) {
    problems.push({
      field: 'slug',
      message: `must name a screen of the site: one of ${Object.keys(PAGE_SCREENS).join(', ')}`,
    });
  }
  if (post.kind === 'newsletter' && ['confirm', 'unsubscribe', 'rss'].includes(post.slug)) {
    problems.push({ field: 'slug', message: `"${post.slug}" is taken by a page of the site` });
  }
  if (problems.length === 0) {
    // Two saves giving one slug at once: the second waits here for the first to commit, then
    // finds its post, rather than failing on the unique index (a 500).
    await db.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
      `cohort:post-slug:${post.kind}:${post.slug}`,
    ]);
    const { rows } = await db.query<{ id: number; deleted: boolean }>(
      `SELECT "id", "deletedAt" IS NOT NULL AS deleted FROM "posts"
        WHERE "kind" = $1 AND "slug" = $2 AND "id" IS DISTINCT FROM $3`,
      [post.kind, post.slug, id],
    );
    const other = rows[0];
    if (other) {
      problems.push({
        field: 'slug',
        message: `"${post.slug}" is taken by ${other.deleted ? 'a deleted' : 'another'} ${post.kind} (post ${other.id})`,
      });
    }
  }
  if (whole) {
    // The day a page or resource list last changed is the server's to keep (stampFields).
    const written = Object.fromEntries(
      Object.entries(post.fields).filter(([key]) => key !== 'updatedAt'),
    );
    const fields = postFieldSchemas[post.kind].safeParse(written);
    if (!fields.success) problems.push(...zodProblems(fields.error, written));
    const hasBody = post.kind === 'article' || post.kind === 'page' || post.kind === 'newsletter';
    if (hasBody && post.body.trim() === '')
      problems.push({ field: 'body', message: 'is required' });
    if (!hasBody && post.body.trim() !== '') {
      problems.push({ field: 'body', message: `must be empty: a ${post.kind} has no body` });
    }
    for (const problem of findMarkdownProblems(post.body)) {
      problems.push({ field: 'body', message: problem });
    }
    if (post.featureImage && !post.featureImageAlt?.trim()) {
      problems.push({ field: 'featureImageAlt', message: 'is required with a feature image' });
    }
  }
  if (problems.length > 0) throw invalid(problems);
}

/**
 * A post as it would be published with these changes, saving nothing (the desk's preview): checked
 * as publishing checks it, so a preview shows only what can go live. Live now, unless it already
 * went live earlier.
 */
export async function previewRow(
  pool: pg.Pool,
  id: number,
  body: Record<string, unknown>,
): Promise<PostRow> {
  const row = await readRow(pool, id);
  if (!row) throw new HttpError(404, 'not_found', `There is no post ${id}.`);
  const changes = readChanges(
    row.kind,
    { ...body, status: row.status, publishedAt: row.publishedAt?.toISOString() ?? null },
    row,
  );
  const post = merge(row.kind, row, changes);
  await checkCandidate(pool, post, id, true);
  const now = new Date();
  return {
    ...row,
    ...post,
    fields: stampFields(post),
    status: 'published',
    publishedAt: row.publishedAt && row.publishedAt <= now ? row.publishedAt : now,
    updatedAt: now,
  };
}

/** Pages and resource groups say when their text last changed (the sitemap's lastmod). */
function stampFields(post: Candidate): Record<string, unknown> {
  if (post.kind === 'page' || post.kind === 'resources') {
    return { ...post.fields, updatedAt: isoDay(new Date()) };
  }
  return post.fields;
}

/** A post's content as the INSERT and the UPDATE write it: slug … fields, in that order. */
const contentValues = (post: Candidate) => [
  post.slug,
  post.title,
  post.body,
  post.visibility,
  post.featureImage,
  post.featureImageAlt,
  post.seoTitle,
  post.seoDescription,
  stampFields(post),
];

/** Whether the post is on the site now, or will be by itself (scheduled). */
const isLiveOrScheduled = (row: Pick<PostRow, 'status'>) => row.status !== 'draft';

export async function createPost(
  pool: pg.Pool,
  actor: Actor,
  body: Record<string, unknown>,
): Promise<PostChange> {
  const kind = body.kind;
  if (typeof kind !== 'string' || !(POST_KINDS as readonly string[]).includes(kind)) {
    throw invalid([{ field: 'kind', message: `must be one of ${POST_KINDS.join(', ')}` }]);
  }
  const changes = readChanges(kind as PostKind, body, null);
  const post = merge(kind as PostKind, null, changes);
  return withTransaction(pool, async (tx) => {
    await checkCandidate(tx, post, null, false);
    const tookAddress = await claimAddress(tx, actor, null, post);
    const { rows } = await tx.query<PostRow>(
      `INSERT INTO "posts" ("kind", "slug", "title", "body", "visibility", "featureImage",
          "featureImageAlt", "seoTitle", "seoDescription", "fields", "createdBy", "updatedBy",
          "updatedAt")
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, now())
        RETURNING ${POST_COLUMNS}`,
      [post.kind, ...contentValues(post), actor.userId],
    );
    return {
      post: postJson(rows[0] as PostRow),
      generation: tookAddress ? await contentChanged(tx) : null,
    };
  });
}

/** The current post, locked for this transaction, or a 409 with it when `version` is stale. */
async function lockAtVersion(tx: Tx, id: number, version: unknown): Promise<PostRow> {
  if (typeof version !== 'number' || !Number.isInteger(version)) {
    throw invalid([{ field: 'version', message: 'is required: the version you last read' }]);
  }
  const row = await readRow(tx, id, true);
  if (!row) throw notFound(id);
  if (row.version !== version) throw new EditConflict(postJson(row));
  return row;
}

/** A save naming a version that is not the post's any more: answered 409 with the post now. */
export class EditConflict extends Error {
  override name = 'EditConflict';
  constructor(readonly post: PostJson) {
    super(
      `Someone saved this post since you read it (it is at version ${post.version} now): ` +
        'compare the two, then save again naming that version.',
    );
  }
}

/** Writers change only drafts; publishing and what is live belong to editors and owners. */
function requireMayEdit(actor: Actor, row: PostRow) {
  if (actor.role === 'writer' && isLiveOrScheduled(row)) {
    throw new HttpError(
      403,
      'writers_edit_drafts',
      'Writers edit drafts: ask an editor to change a published or scheduled post.',
    );
  }
}

export function requireMayPublish(actor: Actor) {
  if (actor.role === 'writer') {
    throw new HttpError(
      403,
      'writers_cannot_publish',
      'Writers submit drafts; an editor or an owner publishes them.',
    );
  }
}

export async function updatePost(
  pool: pg.Pool,
  actor: Actor,
  id: number,
  body: Record<string, unknown>,
): Promise<PostChange> {
  return withTransaction(pool, async (tx) => {
    const row = await lockAtVersion(tx, id, body.version);
    requireMayEdit(actor, row);
    if (body.kind !== undefined && body.kind !== row.kind) {
      throw invalid([{ field: 'kind', message: 'cannot change: make a new post of that kind' }]);
    }
    const changes = readChanges(row.kind, body, row);
    const post = merge(row.kind, row, changes);
    await checkCandidate(tx, post, id, isLiveOrScheduled(row));
    return saveAsNewVersion(tx, actor, row, post);
  });
}

/** Keeps the post as it was, writes the new content, remembers an address it leaves. */
async function saveAsNewVersion(
  tx: Tx,
  actor: Actor,
  row: PostRow,
  post: Candidate,
): Promise<PostChange> {
  const tookAddress = await claimAddress(tx, actor, row, post);
  await keepRevision(tx, row.id);
  await rememberOldAddress(tx, row, post);
  const { rows } = await tx.query<PostRow>(
    `UPDATE "posts" SET "slug" = $2, "title" = $3, "body" = $4, "visibility" = $5,
        "featureImage" = $6, "featureImageAlt" = $7, "seoTitle" = $8, "seoDescription" = $9,
        "fields" = $10, "updatedBy" = $11, "version" = "version" + 1, "updatedAt" = now()
      WHERE "id" = $1 RETURNING ${POST_COLUMNS}`,
    [row.id, ...contentValues(post), actor.userId],
  );
  return {
    post: postJson(rows[0] as PostRow),
    generation: isLiveOrScheduled(row) || tookAddress ? await contentChanged(tx) : null,
  };
}

/**
 * An address a live post moved from keeps leading to it (301) whoever drafts there: only an owner
 * gives it to another post, and that save ends the redirect. A post taking back an address of its
 * own ends it too. Checked when a save moves a post (or makes one), so a post already at such an
 * address (put there by an import) stays editable. Answers whether it ended a redirect: the site
 * changed, though the post may be a draft.
 */
async function claimAddress(
  tx: Tx,
  actor: Actor,
  row: PostRow | null,
  post: Candidate,
): Promise<boolean> {
  if (!KINDS_WITH_PAGES.includes(post.kind)) return false;
  const path = postPath({ kind: post.kind, slug: post.slug, category: post.fields.category });
  if (row && postPath({ kind: row.kind, slug: row.slug, category: row.fields.category }) === path) {
    return false;
  }
  const { rows } = await tx.query<{ postId: number }>(
    `SELECT "postId" FROM "post_paths" WHERE "path" = $1 FOR UPDATE`,
    [path],
  );
  const held = rows[0];
  if (!held) return false;
  if (held.postId !== row?.id && actor.role !== 'owner') {
    throw invalid([
      {
        field: 'slug',
        message:
          `${path} leads to post ${held.postId}, which was published there: choose another ` +
          'slug, or ask an owner to give this address to this post',
      },
    ]);
  }
  await tx.query(`DELETE FROM "post_paths" WHERE "path" = $1`, [path]);
  return true;
}

/** A published post whose address changes (its slug, an article's section) keeps the old one. */
async function rememberOldAddress(tx: Tx, row: PostRow, post: Candidate) {
  const before = postPath({ kind: row.kind, slug: row.slug, category: row.fields.category });
  const after = postPath({ kind: post.kind, slug: post.slug, category: post.fields.category });
  if (before !== after && row.status === 'published' && KINDS_WITH_PAGES.includes(row.kind)) {
    await tx.query(
      `INSERT INTO "post_paths" ("path", "postId") VALUES ($1, $2)
        ON CONFLICT ("path") DO UPDATE SET "postId" = EXCLUDED."postId", "createdAt" = now()`,
      [before, row.id],
    );
  }
}

const auditView = (post: PostJson) => ({
  id: post.id,
  kind: post.kind,
  slug: post.slug,
  title: post.title,
  status: post.status,
  publishedAt: post.publishedAt,
  version: post.version,
});

async function audit(
  tx: Tx,
  actor: Actor,
  action: AuditAction,
  before: PostJson,
  after: PostJson | null,
) {
  await writeAudit(tx, actor, {
    action,
    targetUserId: null,
    before: auditView(before),
    after: after && auditView(after),
  });
}

/** How far ahead `at` must be for a post to be scheduled rather than published now. */
const SCHEDULE_MIN_MS = 5_000;

export interface PublishResult {
  post: PostJson;
  /** When it goes live, for a post scheduled (the job queue makes it live then). */
  scheduledFor: Date | null;
  generation: number;
}

/**
 * Publishes the post now, or schedules it for `at` (an ISO date-time). A post that is published
 * keeps its date when published again; `at` in the past backdates it.
 */
export async function publishPost(
  pool: pg.Pool,
  actor: Actor,
  id: number,
  body: { version?: unknown; at?: unknown },
): Promise<PublishResult> {
  requireMayPublish(actor);
  let at: Date | null = null;
  if (body.at !== undefined && body.at !== null) {
    const parsed = publishTimeSchema.safeParse(body.at);
    if (!parsed.success) {
      throw invalid([{ field: 'at', message: parsed.error.issues[0]?.message ?? 'is wrong' }]);
    }
    at = new Date(parsed.data);
  }
  return withTransaction(pool, async (tx) => {
    const row = await lockAtVersion(tx, id, body.version);
    await checkCandidate(tx, merge(row.kind, row, { common: {}, fields: {} }), id, true);
    const schedule = at !== null && at.getTime() > Date.now() + SCHEDULE_MIN_MS;
    const publishedAt =
      at ??
      (row.publishedAt && row.publishedAt.getTime() <= Date.now() ? row.publishedAt : new Date());
    const { rows } = await tx.query<PostRow>(
      `UPDATE "posts" SET "status" = $2, "publishedAt" = $3, "unpublishedAt" = NULL,
          "submittedAt" = NULL, "updatedBy" = $4, "version" = "version" + 1, "updatedAt" = now()
        WHERE "id" = $1 RETURNING ${POST_COLUMNS}`,
      [id, schedule ? 'scheduled' : 'published', publishedAt, actor.userId],
    );
    const post = postJson(rows[0] as PostRow);
    await audit(tx, actor, schedule ? 'post_schedule' : 'post_publish', postJson(row), post);
    return {
      post,
      scheduledFor: schedule ? publishedAt : null,
      generation: await contentChanged(tx),
    };
  });
}

/** Takes the post off the site (a scheduled one stays a draft): its address answers 410. */
export async function unpublishPost(
  pool: pg.Pool,
  actor: Actor,
  id: number,
  body: { version?: unknown },
): Promise<PostChange> {
  requireMayPublish(actor);
  return withTransaction(pool, async (tx) => {
    const row = await lockAtVersion(tx, id, body.version);
    if (row.status === 'draft') {
      throw new HttpError(409, 'not_published', 'This post is a draft already.');
    }
    const wasLive =
      row.status === 'published' || (row.publishedAt?.getTime() ?? Infinity) <= Date.now();
    const { rows } = await tx.query<PostRow>(
      `UPDATE "posts" SET "status" = 'draft', "unpublishedAt" = CASE WHEN $3 THEN now() END,
          "updatedBy" = $2, "version" = "version" + 1, "updatedAt" = now()
        WHERE "id" = $1 RETURNING ${POST_COLUMNS}`,
      [id, actor.userId, wasLive],
    );
    const post = postJson(rows[0] as PostRow);
    await audit(tx, actor, 'post_unpublish', postJson(row), post);
    return { post, generation: await contentChanged(tx) };
  });
}

/**
 * Deletes the post (owners only): kept with its revisions, listed nowhere, its address 410.
 * Answers the content generation it made.
 */
export async function deletePost(pool: pg.Pool, actor: Actor, id: number): Promise<number> {
  return withTransaction(pool, async (tx) => {
    const row = await readRow(tx, id, true);
    if (!row) throw notFound(id);
    const wasLive = row.status === 'published';
    await tx.query(
      `UPDATE "posts" SET "deletedAt" = now(), "status" = 'draft',
          "unpublishedAt" = CASE WHEN $3 THEN now() ELSE "unpublishedAt" END,
          "updatedBy" = $2, "version" = "version" + 1, "updatedAt" = now()
        WHERE "id" = $1`,
      [id, actor.userId, wasLive],
    );
    await audit(tx, actor, 'post_delete', postJson(row), null);
    return contentChanged(tx);
  });
}

/** A writer's draft, handed to the editors: it stays a draft until one publishes it. */
export async function submitPost(
  pool: pg.Pool,
  actor: Actor,
  id: number,
  body: { version?: unknown },
): Promise<PostJson> {
  return withTransaction(pool, async (tx) => {
    const row = await lockAtVersion(tx, id, body.version);
    if (row.status !== 'draft') {
      throw new HttpError(409, 'not_a_draft', 'Only a draft is submitted for publishing.');
    }
    await checkCandidate(tx, merge(row.kind, row, { common: {}, fields: {} }), id, true);
    const { rows } = await tx.query<PostRow>(
      `UPDATE "posts" SET "submittedAt" = now(), "updatedBy" = $2, "version" = "version" + 1,
          "updatedAt" = now()
        WHERE "id" = $1 RETURNING ${POST_COLUMNS}`,
      [id, actor.userId],
    );
    return postJson(rows[0] as PostRow);
  });
}

/** The saves before the current version, newest first. */
export async function listRevisions(pool: pg.Pool, id: number): Promise<RevisionJson[]> {
  if (!(await readRow(pool, id))) throw notFound(id);
  const { rows } = await pool.query<{
    version: number;
    savedAt: Date;
    savedByEmail: string | null;
    title: string;
    status: string;
  }>(
    `SELECT "version", "savedAt", "savedByEmail", "snapshot"->>'title' AS title,
        "snapshot"->>'status' AS status
      FROM "post_revisions" WHERE "postId" = $1 ORDER BY "version" DESC`,
    [id],
  );
  return rows.map((row) => ({ ...row, savedAt: row.savedAt.toISOString() }));
}

/**
 * Brings back a revision's content (title, slug, body, fields, image, SEO) as a new version: the
 * version it replaces is kept too, so a restore loses nothing either. The post's status stays.
 */
export async function restoreRevision(
  pool: pg.Pool,
  actor: Actor,
  id: number,
  revision: number,
  body: { version?: unknown },
): Promise<PostChange> {
  return withTransaction(pool, async (tx) => {
    const current = await readRow(tx, id, true);
    if (!current) throw notFound(id);
    const row = body.version === undefined ? current : await lockAtVersion(tx, id, body.version);
    requireMayEdit(actor, row);
    const { rows } = await tx.query<{ snapshot: Record<string, unknown> }>(
      `SELECT "snapshot" FROM "post_revisions" WHERE "postId" = $1 AND "version" = $2`,
      [id, revision],
    );
    const snapshot = rows[0]?.snapshot;
    if (!snapshot) {
      throw new HttpError(404, 'revision_not_found', `Post ${id} has no revision ${revision}.`);
    }
    const text = (key: string) =>
      typeof snapshot[key] === 'string' ? (snapshot[key] as string) : null;
    const post: Candidate = {
      kind: row.kind,
      slug: text('slug') ?? row.slug,
      title: text('title') ?? row.title,
      body: text('body') ?? '',
      visibility: snapshot.visibility === 'members' ? 'members' : 'public',
      featureImage: text('featureImage'),
      featureImageAlt: text('featureImageAlt'),
      seoTitle: text('seoTitle'),
      seoDescription: text('seoDescription'),
      fields: (snapshot.fields as Record<string, unknown> | undefined) ?? {},
    };
    await checkCandidate(tx, post, id, isLiveOrScheduled(row));
    const saved = await saveAsNewVersion(tx, actor, row, post);
    await audit(tx, actor, 'post_restore', postJson(row), saved.post);
    return saved;
  });
}

/**
 * Makes every scheduled post whose time has come published, and answers how many: the job
 * queue's work (post-schedule.ts), also run at start for any a stopped site missed.
 */
export async function publishDuePosts(pool: pg.Pool): Promise<number> {
  return withTransaction(pool, async (tx) => {
    const { rowCount } = await tx.query(
      `UPDATE "posts" SET "status" = 'published', "version" = "version" + 1, "updatedAt" = now()
        WHERE "status" = 'scheduled' AND "deletedAt" IS NULL AND "publishedAt" <= now()`,
    );
    if (!rowCount) return 0;
    await contentChanged(tx);
    return rowCount;
  });
}
