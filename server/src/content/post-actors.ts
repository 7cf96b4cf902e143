import type { PostJson } from '../../../contract/posts.js';
import type { Tx } from '../db/transaction.js';
import { writeAudit, type AuditAction } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';
import { DomainError } from '../domain-error.js';
import { isLiveOrScheduled, type PostRow } from './post-row.js';

/** Who acts on a post: what each role may do to it, and the audit entry of what they did. */

/** Who is acting: the staff member, as the audit log and the revisions name them. */
export type Actor = Pick<Staff, 'userId' | 'email' | 'role'>;

/** Writers change only drafts; publishing and what is live belong to editors and owners. */
export function requireMayEdit(actor: Actor, row: PostRow) {
  if (actor.role === 'writer' && isLiveOrScheduled(row)) {
    throw new DomainError(
      403,
      'writers_edit_drafts',
      'Writers edit drafts: ask an editor to change a published or scheduled post.',
    );
  }
}

export function requireMayPublish(actor: Actor) {
  if (actor.role === 'writer') {
    throw new DomainError(
      403,
      'writers_cannot_publish',
      'Writers submit drafts; an editor or an owner publishes them.',
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

/** The audit entry of a change to a post: the post before and after (null: deleted). */
export async function auditPostChange(
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
