import type { Tx } from '../db/transaction.js';
import type { Services } from '../services.js';
import type { DeskAuditEntry } from '../../../contract/desk-api.js';
import type { Staff } from './staff.js';

/**
 * The desk's audit log: every change made from the desk, with who made it, when, to whom, and
 * the state before and after, written in the same transaction as the change (a change that rolls
 * back leaves no entry, and no change is made without one). The app never updates or deletes it.
 */

export type AuditAction =
  | 'comp_grant'
  | 'comp_end'
  | 'stripe_reread'
  | 'sessions_end'
  | 'password_reset_sent'
  | 'members_export'
  | 'newsletter_export'
  | 'post_publish'
  | 'post_schedule'
  | 'post_unpublish'
  | 'post_delete'
  | 'post_restore'
  | 'post_untrash'
  | 'newsletter_send'
  | 'topic_describe'
  | 'profile_change'
  | 'settings_change'
  | 'samples_remove'
  | 'section_create'
  | 'section_change'
  | 'section_delete'
  | 'link_create'
  | 'link_change'
  | 'link_delete'
  | 'plan_change'
  | 'plan_move_subscribers'
  | 'tier_create'
  | 'tier_change'
  | 'tier_delete'
  | 'offer_create'
  | 'offer_end'
  | 'gift_resend'
  | 'gift_address'
  | 'seats_auto_grant'
  | 'seat_grant'
  | 'seat_decline'
  | 'import'
  | 'integration_create'
  | 'integration_delete'
  | 'comment_hide'
  | 'comment_show'
  | 'comment_pin'
  | 'comment_unpin'
  | 'commenter_block'
  | 'commenter_unblock'
  | 'staff_token_create'
  | 'webhook_create'
  | 'webhook_delete'
  | 'api_post_create'
  | 'api_post_change'
  | 'api_image_upload'
  | 'api_member_add'
  | 'api_member_change'
  | 'ghost_export'
  | 'images_retry'
  | 'redirects_change';

export interface AuditRecord {
  action: AuditAction;
  targetUserId: string | null;
  before: unknown;
  after: unknown;
}

export async function writeAudit(
  tx: Tx,
  actor: Pick<Staff, 'userId' | 'email'>,
  record: AuditRecord,
): Promise<void> {
  await tx.query(
    `INSERT INTO audit_log ("actorId", "actorEmail", action, "targetUserId", before, after)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)`,
    [
      actor.userId,
      actor.email,
      record.action,
      record.targetUserId,
      JSON.stringify(record.before ?? null),
      JSON.stringify(record.after ?? null),
    ],
  );
}

interface AuditRow {
  id: string;
  actorEmail: string;
  action: string;
  targetUserId: string | null;
  before: unknown;
  after: unknown;
  createdAt: Date;
}

const toEntry = (row: AuditRow): DeskAuditEntry => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
});

export const AUDIT_PAGE_SIZE = 50;

/** The audit log newest first (one member's, or everyone's), a page after the entry `after`. */
export async function listAudit(
  { db }: Pick<Services, 'db'>,
  options: { targetUserId?: string; after?: string; limit?: number },
): Promise<{ entries: DeskAuditEntry[]; next: string | null }> {
  const limit = options.limit ?? AUDIT_PAGE_SIZE;
  // ORDER BY names the table's bigint: a bare `id` would be the text column of the same name, and
  // '9' sorts after '10'.
  const { rows } = await db.pool.query<AuditRow>(
    `SELECT id::text, "actorEmail", action, "targetUserId", before, after, "createdAt"
     FROM audit_log
     WHERE ($1::uuid IS NULL OR "targetUserId" = $1::uuid) AND ($2::bigint IS NULL OR id < $2::bigint)
     ORDER BY audit_log.id DESC LIMIT $3`,
    [options.targetUserId ?? null, options.after ?? null, limit + 1],
  );
  const page = rows.slice(0, limit);
  return {
    entries: page.map(toEntry),
    next: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}
