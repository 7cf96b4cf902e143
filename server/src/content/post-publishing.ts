import type pg from 'pg';
import {
  PostPreviewBodySchema,
  type PublishBody,
  type VersionBody,
} from '../../../contract/post-bodies.js';
import { fieldLabel, type PublishWarning } from '../../../contract/post-editor-fields.js';
import type { PostJson, PostKind } from '../../../contract/posts.js';
import { withTransaction } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { contentChanged } from './content-changes.js';
import { auditPostChange, requireMayPublish, type Actor } from './post-actors.js';
import type { PostChange } from './post-editing.js';
import { takeAuthors } from './post-authors.js';
import { POST_COLUMNS, postJson, readPostRow, type PostRow } from './post-row.js';
import {
  checkCandidate,
  findPublishProblems,
  invalidPost,
  merge,
  readChanges,
  readPostBody,
  readTierIds,
  stampFields,
  type Candidate,
} from './post-validation.js';
import { readArticleSectionNames } from './section-store.js';
import { changeAtVersion } from './post-versions.js';
import { recordPostEvent } from '../outbox/webhook-events.js';

/**
 * A post going live and coming off: published now or scheduled, unpublished, submitted by a
 * writer for an editor to publish, and previewed as it would be published.
 */

/** A draft's preview: the post drawn as it would be published, and what publishing still needs. */
export interface PostPreview {
  row: PostRow;
  /** What publishing would refuse, each named by its label in the editor; empty: it can go live. */
  warnings: PublishWarning[];
}

/**
 * A post as it would be published with these changes, saving nothing (the desk's preview). Only
 * what a save would refuse is refused (a title, a free slug…): what publishing alone asks for (a
 * section, a summary, alt texts…) comes back as warnings, and the page is drawn with stand-ins
 * for the fields still missing. Live now, unless it already went live earlier.
 */
export async function previewPost(
  pool: pg.Pool,
  id: number,
  body: Record<string, unknown>,
): Promise<PostPreview> {
  const read = readPostBody(PostPreviewBodySchema, body);
  const row = await readPostRow(pool, id);
  if (!row) throw new DomainError(404, 'not_found', `There is no post ${id}.`);
  // The preview shows the authors saved; a change to them shows once saved.
  const { rest } = takeAuthors(read);
  const changes = await readTierIds(
    pool,
    readChanges(
      row.kind,
      { ...rest, status: row.status, publishedAt: row.publishedAt?.toISOString() ?? null },
      row,
    ),
  );
  const post = merge(row.kind, row, changes);
  await checkCandidate(pool, post, id, false);
  const warnings = findPublishProblems(post).map(({ field, message }) => ({
    field,
    label: fieldLabel(row.kind, field),
    message,
  }));
  const drawn = warnings.length === 0 ? post : await withStandIns(pool, post);
  const now = new Date();
  return {
    row: {
      ...row,
      ...drawn,
      fields: stampFields(drawn),
      tiers: drawn.visibility === 'tiers' ? (changes.common.tiers ?? row.tiers) : [],
      status: 'published',
      publishedAt: row.publishedAt && row.publishedAt <= now ? row.publishedAt : now,
      updatedAt: now,
    },
    warnings,
  };
}

/**
 * A post as publishing would take it, for what must be whole (the newsletter's test mail and
 * send): the preview's post, refused with what it still lacks.
 */
export async function previewRow(
  pool: pg.Pool,
  id: number,
  body: Record<string, unknown>,
): Promise<PostRow> {
  const { row, warnings } = await previewPost(pool, id, body);
  if (warnings.length > 0) throw invalidPost(warnings);
  return row;
}

/** What the preview draws for each field a draft may still lack: enough for the page to draw. */
const STAND_INS: Record<PostKind, Record<string, unknown>> = {
  article: { summary: '', readingMinutes: 1 },
  // A reserved domain (RFC 2606) where the campaign's own link will be: the card shows its host.
  campaign: { category: 'Direct Action', summary: '', externalLink: 'https://example.com/' },
  boycott: {
    reason: '',
    alternative: { name: '', description: '' },
    updates: [],
    boycottStatus: 'Ongoing',
  },
  resources: { description: '', resources: [] },
  page: { description: '' },
  newsletter: { summary: '', articles: [], sample: false },
};

/** The post with a stand-in for each missing field; an article without a section in the first. */
async function withStandIns(pool: pg.Pool, post: Candidate): Promise<Candidate> {
  const fields = { ...STAND_INS[post.kind], ...post.fields };
  if (post.kind === 'article') {
    const sections = await readArticleSectionNames(pool);
    if (typeof fields.category !== 'string' || !sections.includes(fields.category)) {
      fields.category = sections[0] ?? '';
    }
  }
  return { ...post, fields };
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
  body: PublishBody,
): Promise<PublishResult> {
  requireMayPublish(actor);
  const at = body.at ? new Date(body.at) : null;
  return changeAtVersion(pool, id, body.version, async (tx, row) => {
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
    await auditPostChange(
      tx,
      actor,
      schedule ? 'post_schedule' : 'post_publish',
      postJson(row),
      post,
    );
    if (!schedule && row.status !== 'published') {
      await recordPostEvent(tx, 'post.published', row);
    }
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
  body: VersionBody,
): Promise<PostChange> {
  requireMayPublish(actor);
  return changeAtVersion(pool, id, body.version, async (tx, row) => {
    if (row.status === 'draft') {
      throw new DomainError(409, 'not_published', 'This post is a draft already.');
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
    await auditPostChange(tx, actor, 'post_unpublish', postJson(row), post);
    if (wasLive) await recordPostEvent(tx, 'post.unpublished', row);
    return { post, generation: await contentChanged(tx) };
  });
}

/** A writer's draft, handed to the editors: it stays a draft until one publishes it. */
export async function submitPost(
  pool: pg.Pool,
  actor: Actor,
  id: number,
  body: VersionBody,
): Promise<PostJson> {
  return changeAtVersion(pool, id, body.version, async (tx, row) => {
    if (row.status !== 'draft') {
      throw new DomainError(409, 'not_a_draft', 'Only a draft is submitted for publishing.');
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

/**
 * Makes every scheduled post whose time has come published, and answers how many: the job
 * queue's work (post-schedule.ts), also run at start for any a stopped site missed.
 */
export async function publishDuePosts(pool: pg.Pool): Promise<number> {
  return withTransaction(pool, async (tx) => {
    const { rows, rowCount } = await tx.query<{
      id: number;
      kind: string;
      publishedAt: Date;
      updatedAt: Date;
    }>(
      `UPDATE "posts" p SET "status" = 'published', "version" = p."version" + 1, "updatedAt" = now()
        FROM (SELECT "id", "updatedAt" FROM "posts"
               WHERE "status" = 'scheduled' AND "deletedAt" IS NULL AND "publishedAt" <= now()
               FOR UPDATE) before
        WHERE p."id" = before."id"
        RETURNING p."id", p."kind", p."publishedAt", before."updatedAt"`,
    );
    if (!rowCount) return 0;
    for (const row of rows) {
      await recordPostEvent(tx, 'post.published', { ...row, status: 'scheduled' });
    }
    await contentChanged(tx);
    return rowCount;
  });
}
