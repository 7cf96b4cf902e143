import type pg from 'pg';
import type { Comment } from '../../../contract/comments.js';
import { postPath, type PostKind } from '../../../contract/posts.js';
import type { ReadingRule } from '../../../contract/reading.js';
import {
  articleSectionSlugs,
  specialSectionSlugs,
  type SiteSection,
} from '../../../contract/sections.js';
import type { Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';

/**
 * What the comments module reads and signals everywhere: the comment rows as the API shows them
 * (contract/comments.ts), the live post they hang under, and the per-post version a drawn page's
 * comments are keyed on.
 */

export type Db = Pick<pg.Pool, 'query'>;

/** The notice every app server gets when a post's comments change; payload `<postId>:<version>`. */
export const COMMENTS_CHANNEL = 'cohort_comments';

/**
 * Says that a post's comments changed (a comment, an edit, a like, a moderation): raises the
 * post's comments version and notifies every app server, inside the change's transaction. A page
 * that draws the comments keys what it keeps on `(postId, version)` (readCommentsVersion), so it
 * never shows comments older than the version it read; the site's content generation is left alone,
 * so a comment does not make every server read all of the content again.
 */
export async function commentsChanged(tx: Tx, postId: number): Promise<number> {
  const { rows } = await tx.query<{ version: number }>(
    `INSERT INTO "post_comment_versions" ("postId", "version") VALUES ($1, 1)
      ON CONFLICT ("postId") DO UPDATE SET "version" = "post_comment_versions"."version" + 1
      RETURNING "version"`,
    [postId],
  );
  const version = rows[0]?.version ?? 0;
  await tx.query(`SELECT pg_notify($1, $2)`, [COMMENTS_CHANNEL, `${postId}:${version}`]);
  return version;
}

/** The post's comments version now: 0 for a post whose comments never changed. */
export async function readCommentsVersion(db: Db, postId: number): Promise<number> {
  const { rows } = await db.query<{ version: number }>(
    `SELECT "version" FROM "post_comment_versions" WHERE "postId" = $1`,
    [postId],
  );
  return rows[0]?.version ?? 0;
}

/** A post comments can hang under: live on the site (published, not deleted). */
export interface CommentedPost {
  id: number;
  kind: string;
  slug: string;
  title: string;
  /** Who may read it whole, and so its comments (contract/reading.ts). */
  rule: ReadingRule;
  category: unknown;
}

export async function findLivePost(db: Db, postId: number): Promise<CommentedPost | null> {
  const { rows } = await db.query<Omit<CommentedPost, 'rule'> & ReadingRule>(
    `SELECT p."id", p."kind", p."slug", p."title", p."visibility",
            ARRAY(SELECT t."slug" FROM "tiers" t WHERE t."id" = ANY(p."tierIds")
                   ORDER BY t."position", t."id") AS "tiers",
            p."fields"->'category' AS category
       FROM "posts" p
      WHERE p."id" = $1 AND p."deletedAt" IS NULL AND p."status" IN ('published', 'scheduled')
        AND p."publishedAt" <= now()`,
    [postId],
  );
  const row = rows[0];
  if (!row) return null;
  const { visibility, tiers, ...post } = row;
  return { ...post, rule: { visibility, tiers } };
}

export const postNotFound = () =>
  new DomainError(
    404,
    'not_found',
    'There is no such post, or its comments are not yours to read.',
  );

export const commentNotFound = () =>
  new DomainError(404, 'comment_not_found', 'There is no such comment (it may have been deleted).');

/** The name a comment is shown with: its account's, its imported guest's. */
export const AUTHOR_NAME_SQL = `COALESCE(NULLIF(u."name", ''), c."guestName", 'A former member')`;

/**
 * Which comments a viewer ($viewer, a user id or null) sees: the visible ones, and their own
 * held for approval. Hidden ones nobody sees outside the desk.
 */
export const SEEN_BY_VIEWER = (viewer: string, alias = 'c') =>
  `(${alias}."status" = 'visible' OR (${alias}."status" = 'pending' AND ${alias}."userId" = ${viewer}))`;

interface CommentRow {
  id: string;
  parentId: string | null;
  name: string;
  html: string;
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
  likes: number;
  likedByMe: boolean;
  mine: boolean;
  /** The Markdown as written: read for the viewer's own comments only. */
  body: string | null;
  pinned: boolean;
  status: string;
}

/** The columns every query of comments for a reader selects; `$viewer` is the reader's id or null. */
export const commentColumns = (viewer: string) => `
  c."id", c."parentId", ${AUTHOR_NAME_SQL} AS name, c."html", c."createdAt", c."editedAt",
  c."deletedAt", c."likes", c."pinned", c."status",
  COALESCE(c."userId" = ${viewer}, false) AS mine,
  CASE WHEN c."userId" = ${viewer} THEN c."body" END AS body,
  (${viewer}::uuid IS NOT NULL AND EXISTS (SELECT 1 FROM "comment_likes" l
     WHERE l."commentId" = c."id" AND l."userId" = ${viewer})) AS "likedByMe"`;

export type { CommentRow };

export function toComment(row: CommentRow, replies: Comment['replies'] = []): Comment {
  const deleted = row.deletedAt !== null;
  return {
    id: row.id,
    parentId: row.parentId,
    author: { name: deleted ? '' : row.name },
    html: deleted ? '' : row.html,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    deleted,
    likes: row.likes,
    likedByMe: row.likedByMe,
    mine: row.mine,
    ...(row.mine && !deleted && row.body !== null && { body: row.body }),
    pinned: row.pinned,
    pending: row.status === 'pending',
    replies,
  };
}

/** One comment as `viewer` sees it, with its replies when it is a top comment. */
export async function readComment(
  db: Db,
  commentId: string,
  viewer: string | null,
): Promise<Comment> {
  const { rows } = await db.query<CommentRow>(
    `SELECT ${commentColumns('$2')}
       FROM "comments" c LEFT JOIN "users" u ON u."id" = c."userId"
      WHERE c."id" = $1 OR (c."parentId" = $1 AND c."deletedAt" IS NULL AND ${SEEN_BY_VIEWER('$2')})
      ORDER BY c."createdAt", c."id"`,
    [commentId, viewer],
  );
  const row = rows.find((candidate) => candidate.id === commentId);
  if (!row) throw commentNotFound();
  const replies = rows
    .filter((candidate) => candidate.id !== commentId)
    .map((reply) => toComment(reply) as Comment['replies'][number]);
  return toComment(row, replies);
}

/** The address of each post on the site, by id (contract/posts.ts's postPath). */
export async function postPaths(db: Db, postIds: number[]): Promise<Map<number, string>> {
  if (postIds.length === 0) return new Map();
  const [posts, sections] = await Promise.all([
    db.query<{ id: number; kind: PostKind; slug: string; category: unknown }>(
      `SELECT "id", "kind", "slug", "fields"->'category' AS category
         FROM "posts" WHERE "id" = ANY($1::int[])`,
      [postIds],
    ),
    db.query<Pick<SiteSection, 'name' | 'slug' | 'lists'>>(
      `SELECT "name", "slug", "lists" FROM "sections" ORDER BY "position", "id"`,
    ),
  ]);
  const sectionSlugs = articleSectionSlugs(sections.rows);
  const special = specialSectionSlugs(sections.rows);
  return new Map(posts.rows.map((row) => [row.id, postPath(row, sectionSlugs, special)]));
}
