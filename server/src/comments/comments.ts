import {
  COMMENTS_PAGE_SIZE,
  type Comment,
  type CommentList,
  type CommentSort,
  type CommentViewer,
} from '../../../contract/comments.js';
import { mayRead, type Reader, type ReadingRule } from '../../../contract/reading.js';
import { pageCursor } from '../db/page-cursor.js';
import { DomainError } from '../domain-error.js';
import {
  commentColumns,
  findLivePost,
  postNotFound,
  SEEN_BY_VIEWER,
  toComment,
  type CommentRow,
  type Db,
} from './comment-store.js';

/**
 * Comments under posts (docs/comments.md): who may read them and act on them, and the reading.
 * What a reader does to them is in comment-writing.ts, moderation in moderation.ts, mail in
 * comment-mail.ts.
 *
 * For the page renderer and the API alike:
 *   listPostComments(db, { postId, viewerUserId: string | null, sort?, cursor?, limit? })
 *     → { count, comments, nextCursor }   (the caller has checked the reader may read the post:
 *                                          mayReadComments)
 *   readCommentsVersion(db, postId) → number   (comment-store.ts: key a drawn page's comments on it)
 * For the WordPress import: storeImportedComment in imported-comments.ts.
 */

export type CommentsMode = 'members' | 'everyone' | 'off';

export interface CommentRules {
  who: CommentsMode;
  /** A new account's first comment with a link waits for approval. */
  holdFirstLink: boolean;
  /** The staff's addresses (owners and editors): who may get a mail on every comment. */
  staffEmails: readonly string[];
}

/** The reader behind a request, as far as comments care. */
export interface CommentReader {
  /** A registered account's id; null for a visitor. */
  userId: string | null;
  emailVerified: boolean;
  /**
   * Who they are as a reader of posts (content/readers.ts): `tier` set while their membership
   * gives access (paid, comped, gifted, a seat).
   */
  reading: Reader;
  /** On the desk's staff lists: reads every post, comments whatever COMMENTS says but off. */
  isStaff: boolean;
}

/**
 * Whether `reader` may read the post's body, and so its comments: the one rule of who reads what
 * (contract/reading.ts), and the staff, who read every post.
 */
export function mayReadComments(
  post: { rule: ReadingRule },
  reader: Pick<CommentReader, 'reading' | 'isStaff'>,
) {
  return reader.isStaff || mayRead(post.rule, reader.reading);
}

/** Why `reader` may not write a comment (or like, or report), or null when they may. */
function refusalToComment(rules: CommentRules, reader: CommentReader): DomainError | null {
  if (rules.who === 'off') {
    return new DomainError(403, 'comments_off', 'Comments are turned off on this site.');
  }
  if (!reader.userId) {
    return new DomainError(401, 'unauthenticated', 'Sign in to comment.');
  }
  if (!reader.emailVerified) {
    return new DomainError(
      403,
      'unproven_address',
      'Prove your address first: sign in with a link we mail to it.',
    );
  }
  if (rules.who === 'members' && reader.reading.tier === null && !reader.isStaff) {
    return new DomainError(403, 'not_a_member', 'Only members can comment here: become one.');
  }
  return null;
}

/** What a reader does to comments: write covers posting, replying, liking and reporting. */
export type CommentAction = 'write' | 'edit';

/**
 * Why `reader` may not act on comments, or null when they may: the one rule every comment action
 * asks (posting, replying, editing, liking, reporting), and the viewer's `canComment` with it.
 * The site's rule (refusalToComment) holds for all but an author's edit of their own comment (a
 * lapsed member may still mend what they wrote); a block from the desk holds for every one.
 * Deleting one's own comment alone asks nothing: a blocked author may still take theirs down.
 */
async function refusalToAct(
  db: Db,
  rules: CommentRules,
  reader: CommentReader,
  action: CommentAction,
): Promise<DomainError | null> {
  const refusal = action === 'edit' ? null : refusalToComment(rules, reader);
  if (refusal) return refusal;
  if (!reader.userId) return new DomainError(401, 'unauthenticated', 'Sign in first.');
  const { rows } = await db.query(`SELECT 1 FROM "comment_blocks" WHERE "userId" = $1`, [
    reader.userId,
  ]);
  return rows.length > 0
    ? new DomainError(403, 'blocked', 'You can no longer comment on this site.')
    : null;
}

/** The account behind a comment action, or the refusal (refusalToAct) thrown. */
export async function requireCommenter(
  db: Db,
  rules: CommentRules,
  reader: CommentReader,
  action: CommentAction,
): Promise<string> {
  const refusal = await refusalToAct(db, rules, reader, action);
  if (refusal) throw refusal;
  return reader.userId as string;
}

/** Who reads a post's comments, as the comment box needs it: signed in, may comment, named. */
export async function readCommentViewer(
  db: Db,
  rules: CommentRules,
  reader: CommentReader,
): Promise<CommentViewer> {
  if (!reader.userId) return { signedIn: false, canComment: false, name: null };
  const [refusal, { rows }] = await Promise.all([
    refusalToAct(db, rules, reader, 'write'),
    db.query<{ name: string | null }>(`SELECT "name" FROM "users" WHERE "id" = $1`, [
      reader.userId,
    ]),
  ]);
  return { signedIn: true, canComment: refusal === null, name: rows[0]?.name?.trim() || null };
}

/** The post, when `reader` may read its comments; else a 404. */
export async function readablePost(db: Db, postId: number, reader: CommentReader) {
  const post = await findLivePost(db, postId);
  if (!post || !mayReadComments(post, reader)) throw postNotFound();
  return post;
}

// ---- Reading ----

/** Where a page starts: after this comment (its likes, time and id, whatever the sort). */
const COMMENTS_CURSOR = pageCursor('cursor', 'integer', 'date', 'uuid');
type Cursor = ReturnType<typeof COMMENTS_CURSOR.decode>;

/** Each sort's order of top comments, and the condition and values for those after a cursor's. */
const ORDERS: Record<
  CommentSort,
  { order: string; after: string; values: (cursor: Cursor) => unknown[] }
> = {
  newest: {
    order: `c."createdAt" DESC, c."id" DESC`,
    after: `(c."createdAt", c."id") < ($4::timestamptz, $5::uuid)`,
    values: ([, createdAt, id]) => [createdAt, id],
  },
  oldest: {
    order: `c."createdAt", c."id"`,
    after: `(c."createdAt", c."id") > ($4::timestamptz, $5::uuid)`,
    values: ([, createdAt, id]) => [createdAt, id],
  },
  best: {
    order: `c."likes" DESC, c."createdAt" DESC, c."id" DESC`,
    after: `(c."likes", c."createdAt", c."id") < ($4::int, $5::timestamptz, $6::uuid)`,
    values: (keys) => keys,
  },
};

/**
 * A page of a post's top comments as `viewerUserId` sees them, each with its replies (oldest
 * first), and the post's count. Pinned comments come first, on the first page only; the rest
 * page by `sort` with a keyset cursor (an index scan however deep the page: tests/bench/comments.ts).
 * A deleted top comment is a placeholder while a reply the viewer sees hangs under it.
 */
export async function listPostComments(
  db: Db,
  options: {
    postId: number;
    viewerUserId: string | null;
    sort?: CommentSort;
    cursor?: string | null;
    limit?: number;
  },
): Promise<Omit<CommentList, 'viewer'>> {
  const { postId, viewerUserId: viewer } = options;
  const sort = options.sort ?? 'newest';
  const limit = options.limit ?? COMMENTS_PAGE_SIZE;
  const cursor = options.cursor ? COMMENTS_CURSOR.decode(options.cursor) : null;
  const { order, after, values } = ORDERS[sort];
  const shown = `c."postId" = $1 AND c."parentId" IS NULL AND ${SEEN_BY_VIEWER('$2')}
    AND (c."deletedAt" IS NULL OR EXISTS (SELECT 1 FROM "comments" r
          WHERE r."parentId" = c."id" AND r."deletedAt" IS NULL AND ${SEEN_BY_VIEWER('$2', 'r')}))`;
  const columns = commentColumns('$2::uuid');
  // One statement: the pinned (first page only), a page of top comments and their replies, each
  // row with its part (0 pinned, 1 the page, 2 a reply) and place in it.
  const [rows, count] = await Promise.all([
    db.query<CommentRow & { part: number; place: string }>(
      `WITH top AS (
         (SELECT c."id", 0 AS part, row_number() OVER (ORDER BY c."createdAt" DESC, c."id" DESC) AS place
            FROM "comments" c WHERE ${shown} AND c."pinned" AND ${cursor ? 'false' : 'true'})
         UNION ALL
         (SELECT c."id", 1, row_number() OVER (ORDER BY ${order})
            FROM "comments" c WHERE ${shown} AND NOT c."pinned" AND ${cursor ? after : 'true'}
           ORDER BY ${order} LIMIT $3))
       SELECT ${columns}, t.part, t.place
         FROM top t JOIN "comments" c ON c."id" = t."id" LEFT JOIN "users" u ON u."id" = c."userId"
       UNION ALL
       SELECT ${columns}, 2, row_number() OVER (ORDER BY c."createdAt", c."id")
         FROM "comments" c LEFT JOIN "users" u ON u."id" = c."userId"
        WHERE c."postId" = $1 AND c."parentId" IN (SELECT "id" FROM top) AND c."deletedAt" IS NULL
          AND ${SEEN_BY_VIEWER('$2')}`,
      [postId, viewer, limit + 1, ...(cursor ? values(cursor) : [])],
    ),
    db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "comments"
        WHERE "postId" = $1 AND "status" = 'visible' AND "deletedAt" IS NULL`,
      [postId],
    ),
  ]);
  const inPart = (part: number) =>
    rows.rows.filter((row) => row.part === part).sort((a, b) => Number(a.place) - Number(b.place));
  const page = inPart(1);
  const more = page.length > limit;
  const tops = [...inPart(0), ...page.slice(0, limit)];
  const last = page[limit - 1];
  const repliesOf = new Map<string, Comment['replies']>();
  for (const reply of inPart(2)) {
    const list = repliesOf.get(reply.parentId ?? '') ?? [];
    list.push(toComment(reply) as Comment['replies'][number]);
    repliesOf.set(reply.parentId ?? '', list);
  }
  return {
    count: count.rows[0]?.count ?? 0,
    comments: tops.map((top) => toComment(top, repliesOf.get(top.id) ?? [])),
    nextCursor: more && last ? COMMENTS_CURSOR.encode([last.likes, last.createdAt, last.id]) : null,
  };
}

/**
 * The comments of a post for `reader`, after checking they may read them (the API's GET). Both
 * are asked at once: a list for a post the reader may not read is dropped unread.
 */
export async function listReadableComments(
  db: Db,
  reader: CommentReader,
  options: { postId: number; sort?: CommentSort; cursor?: string | null },
) {
  const [, list] = await Promise.all([
    readablePost(db, options.postId, reader),
    listPostComments(db, { ...options, viewerUserId: reader.userId }),
  ]);
  return list;
}
