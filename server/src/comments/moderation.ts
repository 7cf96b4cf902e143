import type pg from 'pg';
import {
  DESK_COMMENTS_PAGE_SIZE,
  type CommenterBlock,
  type CommentStatus,
  type DeskComment,
  type DeskCommentFilter,
  type DeskCommentList,
} from '../../../contract/comments.js';
import type { StaffConfig } from '../config.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { writeAudit, type AuditAction } from '../staff/audit.js';
import { staffRoleOf, type Staff, type StaffRole } from '../staff/staff.js';
import { pageCursor } from '../db/page-cursor.js';
import { DomainError } from '../domain-error.js';
import { queueCommentMails } from './comment-mail-rows.js';
import {
  AUTHOR_NAME_SQL,
  commentNotFound,
  commentsChanged,
  postPaths,
  type Db,
} from './comment-store.js';

/**
 * The desk's side of comments (docs/comments.md#moderation): the list, newest and reported first,
 * and what owners and editors do to a comment or a commenter. Every action writes the audit log
 * in its own transaction.
 */

/** Reports made since staff last hid or showed the comment: what still asks for a look. */
const OPEN_REPORTS = `EXISTS (SELECT 1 FROM "comment_reports" r
  WHERE r."commentId" = c."id" AND r."createdAt" > COALESCE(c."moderatedAt", '-infinity'))`;

const FILTERS: Record<DeskCommentFilter, string> = {
  all: 'true',
  reported: OPEN_REPORTS,
  hidden: `c."status" = 'hidden'`,
  pending: `c."status" = 'pending'`,
};

interface DeskRow {
  id: string;
  parentId: string | null;
  postId: number;
  postTitle: string;
  userId: string | null;
  name: string;
  email: string | null;
  blocked: boolean;
  body: string;
  html: string;
  status: CommentStatus;
  pinned: boolean;
  deletedAt: Date | null;
  likes: number;
  createdAt: Date;
  editedAt: Date | null;
  reported: boolean;
  reports: { reason: string; createdAt: string }[];
}

const DESK_COLUMNS = `c."id", c."parentId", c."postId", p."title" AS "postTitle", c."userId",
  ${AUTHOR_NAME_SQL} AS name, u."email",
  EXISTS (SELECT 1 FROM "comment_blocks" b WHERE b."userId" = c."userId") AS blocked,
  c."body", c."html", c."status", c."pinned", c."deletedAt", c."likes", c."createdAt", c."editedAt",
  ${OPEN_REPORTS} AS reported,
  COALESCE((SELECT json_agg(json_build_object('reason', r."reason", 'createdAt', r."createdAt")
                             ORDER BY r."createdAt" DESC)
              FROM "comment_reports" r WHERE r."commentId" = c."id"), '[]') AS reports`;

const DESK_FROM = `FROM "comments" c JOIN "posts" p ON p."id" = c."postId"
  LEFT JOIN "users" u ON u."id" = c."userId"`;

async function toDeskComments(db: Db, rows: DeskRow[]): Promise<DeskComment[]> {
  const paths = await postPaths(db, [...new Set(rows.map((row) => row.postId))]);
  return rows.map((row) => ({
    id: row.id,
    parentId: row.parentId,
    post: { id: row.postId, title: row.postTitle, path: paths.get(row.postId) ?? '/' },
    author: { userId: row.userId, name: row.name, email: row.email, blocked: row.blocked },
    body: row.body,
    html: row.html,
    status: row.status,
    pinned: row.pinned,
    deleted: row.deletedAt !== null,
    likes: row.likes,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    reports: row.reports.map((report) => ({
      reason: report.reason,
      createdAt: new Date(report.createdAt).toISOString(),
    })),
  }));
}

/** Where a page starts: after this comment (whether it has open reports, its time and id). */
const DESK_COMMENTS_CURSOR = pageCursor('cursor', 'boolean', 'date', 'uuid');

/** The desk's list: comments with open reports first, then the newest; one page after another. */
export async function listDeskComments(
  db: Db,
  options: { filter?: DeskCommentFilter; cursor?: string | null; limit?: number },
): Promise<DeskCommentList> {
  const limit = options.limit ?? DESK_COMMENTS_PAGE_SIZE;
  const where = FILTERS[options.filter ?? 'all'];
  const [afterReported, afterTime, afterId] = options.cursor
    ? DESK_COMMENTS_CURSOR.decode(options.cursor)
    : [null, null, null];
  const { rows } = await db.query<DeskRow>(
    `SELECT * FROM (SELECT ${DESK_COLUMNS} ${DESK_FROM} WHERE ${where}) c
      WHERE $1::boolean IS NULL OR (c.reported, c."createdAt", c."id") < ($1, $2::timestamptz, $3::uuid)
      ORDER BY c.reported DESC, c."createdAt" DESC, c."id" DESC
      LIMIT $4`,
    [afterReported, afterTime, afterId, limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    comments: await toDeskComments(db, page),
    nextCursor:
      rows.length > limit && last
        ? DESK_COMMENTS_CURSOR.encode([last.reported, last.createdAt, last.id])
        : null,
  };
}

async function readDeskComment(db: Db, commentId: string): Promise<DeskComment> {
  const { rows } = await db.query<DeskRow>(
    `SELECT ${DESK_COLUMNS} ${DESK_FROM} WHERE c."id" = $1`,
    [commentId],
  );
  const [comment] = await toDeskComments(db, rows);
  if (!comment) throw commentNotFound();
  return comment;
}

type CommentAction = 'hide' | 'show' | 'pin' | 'unpin';

const AUDIT_OF: Record<CommentAction, AuditAction> = {
  hide: 'comment_hide',
  show: 'comment_show',
  pin: 'comment_pin',
  unpin: 'comment_unpin',
};

/**
 * Hides, shows (which approves a held comment: its mails go then), pins or unpins a comment, with
 * its audit entry. Only a top comment can be pinned. Answers the comment and the ids of the mails
 * showing it queued (for the job queue, after the commit).
 */
export async function moderateComment(
  pool: pg.Pool,
  staff: Pick<Staff, 'userId' | 'email'>,
  commentId: string,
  action: CommentAction,
  staffEmails: readonly string[],
): Promise<{ comment: DeskComment; mailIds: string[] }> {
  const mailIds = await withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<{
      postId: number;
      parentId: string | null;
      userId: string | null;
      status: CommentStatus;
      pinned: boolean;
      mailed: boolean;
    }>(
      `SELECT c."postId", c."parentId", c."userId", c."status", c."pinned",
              EXISTS (SELECT 1 FROM "comment_mails" m WHERE m."commentId" = c."id") AS mailed
         FROM "comments" c WHERE c."id" = $1 FOR UPDATE`,
      [commentId],
    );
    const before = rows[0];
    if (!before) throw commentNotFound();
    if (action === 'pin' && before.parentId !== null) {
      throw new DomainError(
        400,
        'not_a_top_comment',
        'Only a top comment can be pinned, not a reply.',
      );
    }
    const change =
      action === 'hide' || action === 'show'
        ? `"status" = '${action === 'hide' ? 'hidden' : 'visible'}', "moderatedAt" = now()`
        : `"pinned" = ${action === 'pin'}`;
    await tx.query(`UPDATE "comments" SET ${change} WHERE "id" = $1`, [commentId]);
    await writeAudit(tx, staff, {
      action: AUDIT_OF[action],
      targetUserId: before.userId,
      before: { commentId, postId: before.postId, status: before.status, pinned: before.pinned },
      after: {
        commentId,
        postId: before.postId,
        status: action === 'hide' ? 'hidden' : action === 'show' ? 'visible' : before.status,
        pinned: action === 'pin' ? true : action === 'unpin' ? false : before.pinned,
      },
    });
    await commentsChanged(tx, before.postId);
    // A held comment approved: the mails it would have sent when posted go now.
    if (action === 'show' && before.status === 'pending' && !before.mailed) {
      return queueCommentMails(tx, {
        commentId,
        answeredId: await answeredOf(tx, commentId),
        authorId: before.userId,
        staffEmails,
      });
    }
    return [];
  });
  return { comment: await readDeskComment(pool, commentId), mailIds };
}

/** The comment a reply answered: its thread's top comment (the one stored as its parent). */
async function answeredOf(tx: Tx, commentId: string): Promise<string | null> {
  const { rows } = await tx.query<{ parentId: string | null }>(
    `SELECT "parentId" FROM "comments" WHERE "id" = $1`,
    [commentId],
  );
  return rows[0]?.parentId ?? null;
}

const RANK: Record<StaffRole, number> = { writer: 1, editor: 2, owner: 3 };

/**
 * Blocks a commenter: from then on they may not post, reply, edit, like or report (comments.ts's
 * refusalToAct), only delete their own. Staff may be blocked only by a higher role: an owner
 * blocks editors and writers, an editor writers; the role is the one their address is listed for
 * (`staffConfig`), proven or not. `hideEarlier` hides every comment of theirs in the same step
 * (and in the same audit entry).
 */
export async function blockCommenter(
  pool: pg.Pool,
  staff: Pick<Staff, 'userId' | 'email' | 'role'>,
  staffConfig: StaffConfig,
  userId: string,
  hideEarlier: boolean,
): Promise<CommenterBlock> {
  return withTransaction(pool, async (tx) => {
    const { email } = await requireAccount(tx, userId);
    if (userId === staff.userId) {
      throw new DomainError(400, 'cannot_block_yourself', 'You cannot block yourself.');
    }
    const role = staffRoleOf(staffConfig, email);
    if (role && RANK[role] >= RANK[staff.role]) {
      throw new DomainError(
        403,
        'cannot_block_staff',
        `Only a higher role can block ${role === 'owner' ? 'an owner' : `an ${role}`}: owners block editors and writers, editors block writers.`,
      );
    }
    await tx.query(
      `INSERT INTO "comment_blocks" ("userId", "blockedBy") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [userId, staff.userId],
    );
    let hidden: { postId: number }[] = [];
    if (hideEarlier) {
      ({ rows: hidden } = await tx.query<{ postId: number }>(
        `UPDATE "comments" SET "status" = 'hidden', "moderatedAt" = now()
          WHERE "userId" = $1 AND "status" IN ('visible', 'pending') RETURNING "postId"`,
        [userId],
      ));
      for (const postId of new Set(hidden.map((row) => row.postId))) {
        await commentsChanged(tx, postId);
      }
    }
    await writeAudit(tx, staff, {
      action: 'commenter_block',
      targetUserId: userId,
      before: { blocked: false },
      after: { blocked: true, hiddenComments: hidden.length },
    });
    return { userId, blocked: true, hidden: hidden.length };
  });
}

export async function unblockCommenter(
  pool: pg.Pool,
  staff: Pick<Staff, 'userId' | 'email'>,
  userId: string,
): Promise<CommenterBlock> {
  return withTransaction(pool, async (tx) => {
    await requireAccount(tx, userId);
    const { rowCount } = await tx.query(`DELETE FROM "comment_blocks" WHERE "userId" = $1`, [
      userId,
    ]);
    await writeAudit(tx, staff, {
      action: 'commenter_unblock',
      targetUserId: userId,
      before: { blocked: Boolean(rowCount) },
      after: { blocked: false },
    });
    return { userId, blocked: false, hidden: 0 };
  });
}

async function requireAccount(tx: Tx, userId: string): Promise<{ email: string | null }> {
  const { rows } = await tx.query<{ email: string | null }>(
    `SELECT "email" FROM "users" WHERE "id" = $1`,
    [userId],
  );
  const account = rows[0];
  if (!account) throw new DomainError(404, 'member_not_found', 'There is no such account.');
  return account;
}

/** A staff member's own choice: a mail on every new comment, or not. */
export async function readCommentMailChoice(db: Db, userId: string): Promise<boolean> {
  const { rows } = await db.query<{ everyComment: boolean }>(
    `SELECT "everyComment" FROM "comment_mail_choices" WHERE "userId" = $1`,
    [userId],
  );
  return rows[0]?.everyComment ?? false;
}

export async function setCommentMailChoice(
  db: Db,
  userId: string,
  onEveryComment: boolean,
): Promise<boolean> {
  await db.query(
    `INSERT INTO "comment_mail_choices" ("userId", "everyComment", "updatedAt") VALUES ($1, $2, now())
     ON CONFLICT ("userId") DO UPDATE SET "everyComment" = $2, "updatedAt" = now()`,
    [userId, onEveryComment],
  );
  return onEveryComment;
}
