import type pg from 'pg';
import type { NewPostBody, PostChangeBody, RestoreBody } from '../../../contract/post-bodies.js';
import type { PostJson } from '../../../contract/posts.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { SAVE_BUDGET_MS, type CardReader, type UnreadCard } from '../embeds/card-reader.js';
import { cardAddressesIn } from './markdown-to-tree.js';
import { contentChanged } from './content-changes.js';
import { auditPostChange, requireMayEdit, type Actor } from './post-actors.js';
import { claimAddress, rememberOldAddress } from './post-addresses.js';
import { existingAuthors, saveAuthors, takeAuthors } from './post-authors.js';
import {
  isLiveOrScheduled,
  POST_COLUMNS,
  postJson,
  postNotFound,
  readPostRow,
  type PostRow,
} from './post-row.js';
import {
  checkCandidate,
  contentValues,
  invalidPost,
  merge,
  readChanges,
  readTierIds,
  splitChanges,
  type Candidate,
} from './post-validation.js';
import {
  changeAtVersion,
  keepRevision,
  lockAtVersion,
  revisionAuthors,
  revisionReaders,
} from './post-versions.js';
import { recordPostEvent } from '../outbox/webhook-events.js';

/**
 * The desk's posts (decision 16), made, saved, restored and deleted here, published in
 * post-publishing.ts: every change in one transaction that checks the version the writer saw (a
 * stale one is a 409 with the post as it is now), keeps what it replaces as a revision, writes the
 * audit entry where one is due, and, when what the site shows changes, says so (contentChanged)
 * and answers the content generation that change made. A draft may be unfinished; a post that is
 * or goes live must be whole. The cards a saved body names are read first, outside the
 * transaction (embeds/card-reader.ts), when the caller gives its reader.
 */

/** A post after a change, and the content generation it made (null: the site shows nothing new). */
export interface PostChange {
  post: PostJson;
  generation: number | null;
  /** The cards its body names that could not be read, now or before: shown as less than cards. */
  unreadCards?: UnreadCard[];
}

/**
 * Reads the cards a body names that were not read before, for at most SAVE_BUDGET_MS: a save
 * never waits longer on the addresses it names.
 */
async function readCardsOf(cards: CardReader | undefined, body: unknown): Promise<UnreadCard[]> {
  if (!cards || typeof body !== 'string') return [];
  return cards.read(cardAddressesIn(body), { budgetMs: SAVE_BUDGET_MS });
}

/** A new post, from a body its route read whole (contract/post-bodies.ts). */
export async function createPost(
  pool: pg.Pool,
  actor: Actor,
  body: NewPostBody,
  cards?: CardReader,
): Promise<PostChange> {
  const { authors, rest } = takeAuthors(body);
  const changes = splitChanges(body.kind, rest, null);
  const unreadCards = await readCardsOf(cards, changes.common.body);
  const change = await withTransaction(pool, async (tx) => {
    const post = merge(body.kind, null, await readTierIds(tx, changes));
    await checkCandidate(tx, post, null, false);
    const tookAddress = await claimAddress(tx, actor, null, post);
    const { rows } = await tx.query<PostRow>(
      `INSERT INTO "posts" ("kind", "slug", "title", "body", "visibility", "featureImage",
          "featureImageAlt", "seoTitle", "seoDescription", "fields", "tierIds", "createdBy",
          "updatedBy", "updatedAt")
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, now())
        RETURNING ${POST_COLUMNS}`,
      [post.kind, ...contentValues(post), post.tierIds, actor.userId],
    );
    const row = rows[0] as PostRow;
    // Its writer's unless it names others.
    row.authors = await saveAuthors(tx, row.id, authors ?? null, actor.userId);
    return {
      post: postJson(row),
      generation: tookAddress ? await contentChanged(tx) : null,
    };
  });
  return { ...change, unreadCards };
}

export async function updatePost(
  pool: pg.Pool,
  actor: Actor,
  id: number,
  body: PostChangeBody,
  cards?: CardReader,
): Promise<PostChange> {
  const unreadCards = await readCardsOf(cards, body.body);
  const change = await changeAtVersion(pool, id, body.version, async (tx, row) => {
    requireMayEdit(actor, row);
    if (body.kind !== undefined && body.kind !== row.kind) {
      throw invalidPost([
        { field: 'kind', message: 'cannot change: make a new post of that kind' },
      ]);
    }
    const { authors, rest } = takeAuthors(body, row.authors ?? []);
    const changes = await readTierIds(tx, readChanges(row.kind, rest, row));
    const post = merge(row.kind, row, changes);
    await checkCandidate(tx, post, id, isLiveOrScheduled(row));
    return saveAsNewVersion(tx, actor, row, post, authors);
  });
  return { ...change, unreadCards };
}

/**
 * Keeps the post as it was, writes the new content (and its authors, when named), remembers an
 * address it leaves.
 */
async function saveAsNewVersion(
  tx: Tx,
  actor: Actor,
  row: PostRow,
  post: Candidate,
  authors?: string[],
): Promise<PostChange> {
  const tookAddress = await claimAddress(tx, actor, row, post);
  await keepRevision(tx, row.id);
  await rememberOldAddress(tx, row, post);
  if (authors) await saveAuthors(tx, row.id, authors, actor.userId);
  const { rows } = await tx.query<PostRow>(
    `UPDATE "posts" SET "slug" = $2, "title" = $3, "body" = $4, "visibility" = $5,
        "featureImage" = $6, "featureImageAlt" = $7, "seoTitle" = $8, "seoDescription" = $9,
        "fields" = $10, "tierIds" = $11, "updatedBy" = $12, "version" = "version" + 1,
        "updatedAt" = now()
      WHERE "id" = $1 RETURNING ${POST_COLUMNS}`,
    [row.id, ...contentValues(post), post.tierIds, actor.userId],
  );
  return {
    post: postJson(rows[0] as PostRow),
    generation: isLiveOrScheduled(row) || tookAddress ? await contentChanged(tx) : null,
  };
}

/**
 * Deletes the post (owners only): it goes to the Trash (post-trash.ts), kept with its revisions
 * and the status it had, listed only there, its address 410, until it is restored or purged.
 * Answers the content generation it made.
 */
export async function deletePost(pool: pg.Pool, actor: Actor, id: number): Promise<number> {
  return withTransaction(pool, async (tx) => {
    const row = await readPostRow(tx, id, true);
    if (!row) throw postNotFound(id);
    await trashPost(tx, actor, row);
    return contentChanged(tx);
  });
}

/**
 * Puts a post not in the Trash yet, read and locked in this transaction, in the Trash as
 * deletePost does (audited, a live one told to the webhooks as unpublished), within a larger
 * change (a section deleted with its posts: section-store.ts); the caller says the content
 * changed.
 */
export async function trashPost(tx: Tx, actor: Actor, row: PostRow): Promise<void> {
  const wasLive = row.status === 'published';
  await tx.query(
    `UPDATE "posts" SET "deletedAt" = now(), "deletedStatus" = "status", "status" = 'draft',
        "unpublishedAt" = CASE WHEN $3 THEN now() ELSE "unpublishedAt" END,
        "updatedBy" = $2, "version" = "version" + 1, "updatedAt" = now()
      WHERE "id" = $1`,
    [row.id, actor.userId, wasLive],
  );
  await auditPostChange(tx, actor, 'post_delete', postJson(row), null);
  if (wasLive) await recordPostEvent(tx, 'post.unpublished', row);
}

/**
 * Brings back a revision's content (title, slug, body, fields, image, SEO, who may read it) as a
 * new version: the version it replaces is kept too, so a restore loses nothing either. The post's
 * status stays.
 */
export async function restoreRevision(
  pool: pg.Pool,
  actor: Actor,
  id: number,
  revision: number,
  body: RestoreBody,
): Promise<PostChange> {
  return withTransaction(pool, async (tx) => {
    const current = await readPostRow(tx, id, true);
    if (!current) throw postNotFound(id);
    const row = body.version === undefined ? current : await lockAtVersion(tx, id, body.version);
    requireMayEdit(actor, row);
    const { rows } = await tx.query<{ snapshot: Record<string, unknown> }>(
      `SELECT "snapshot" FROM "post_revisions" WHERE "postId" = $1 AND "version" = $2`,
      [id, revision],
    );
    const snapshot = rows[0]?.snapshot;
    if (!snapshot) {
      throw new DomainError(404, 'revision_not_found', `Post ${id} has no revision ${revision}.`);
    }
    const text = (key: string) =>
      typeof snapshot[key] === 'string' ? (snapshot[key] as string) : null;
    const post: Candidate = {
      kind: row.kind,
      slug: text('slug') ?? row.slug,
      title: text('title') ?? row.title,
      body: text('body') ?? '',
      ...(await revisionReaders(tx, snapshot)),
      featureImage: text('featureImage'),
      featureImageAlt: text('featureImageAlt'),
      seoTitle: text('seoTitle'),
      seoDescription: text('seoDescription'),
      fields: (snapshot.fields as Record<string, unknown> | undefined) ?? {},
    };
    await checkCandidate(tx, post, id, isLiveOrScheduled(row));
    // Its authors then, those who still have a profile (a revision from before authors were
    // kept in revisions leaves them as they are).
    const kept = revisionAuthors(snapshot);
    const authors = kept && (await existingAuthors(tx, kept));
    const saved = await saveAsNewVersion(tx, actor, row, post, authors ?? undefined);
    await auditPostChange(tx, actor, 'post_restore', postJson(row), saved.post);
    return saved;
  });
}
