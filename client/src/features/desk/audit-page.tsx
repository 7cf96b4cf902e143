import { useState } from 'react';
import { Link } from '../../lib/router';
import type { DeskAuditEntry } from '../../../../contract/desk-api';
import { fetchAudit } from './desk-api';
import { formatDateTime } from './desk-format';
import { DeskPager } from './desk-pager';
import { describeError, useDeskData } from './use-desk-data';

const ACTIONS: Record<string, string> = {
  comp_grant: 'granted a comp',
  comp_end: 'ended a comp',
  stripe_reread: 're-read from Stripe',
  sessions_end: 'signed the member out everywhere',
  password_reset_sent: 'sent a password-reset link',
  members_export: 'exported the members list',
  newsletter_export: 'exported the newsletter list',
  post_publish: 'published a post',
  post_schedule: 'scheduled a post',
  post_unpublish: 'took a post off the site',
  post_delete: 'deleted a post',
  post_restore: 'restored an earlier version of a post',
  post_untrash: 'restored a post from the Trash',
  newsletter_send: 'sent a newsletter issue',
  topic_describe: 'described a topic',
  profile_change: 'changed their author profile',
  settings_change: 'changed the settings',
  samples_remove: 'removed the sample content',
  section_create: 'added a section',
  section_change: 'changed a section',
  section_delete: 'deleted a section',
  link_create: 'added a menu link',
  link_change: 'changed a menu link',
  link_delete: 'deleted a menu link',
  plan_change: 'changed a plan',
  plan_move_subscribers: 'moved members to a plan’s new price',
  tier_create: 'added a tier',
  tier_change: 'changed a tier',
  tier_delete: 'deleted a tier',
  offer_create: 'made an offer',
  offer_end: 'ended an offer',
  gift_resend: 'mailed a gift again',
  gift_address: 'changed a gift’s address',
  seats_auto_grant: 'set the seats granted each month',
  seat_grant: 'granted a solidarity seat',
  seat_decline: 'declined a seat request',
  import: 'imported a file',
  ghost_export: 'downloaded everything as a Ghost export',
  images_retry: 'tried the missing images again',
  redirects_change: 'changed the redirects',
  comment_hide: 'hid a comment',
  comment_show: 'showed a comment',
  comment_pin: 'pinned a comment',
  comment_unpin: 'unpinned a comment',
  commenter_block: 'blocked a commenter',
  commenter_unblock: 'unblocked a commenter',
  integration_create: 'made an integration (keys to the Ghost API)',
  integration_delete: 'deleted an integration',
  staff_token_create: 'made a staff access token (the Ghost Admin API)',
  webhook_create: 'added a webhook to an integration',
  webhook_delete: 'removed a webhook',
  api_post_create: 'wrote a post through the Ghost Admin API',
  api_post_change: 'changed a post through the Ghost Admin API',
  api_image_upload: 'uploaded an image through the Ghost Admin API',
  api_member_add: 'added a member through the Ghost Admin API',
  api_member_change: 'changed a member through the Ghost Admin API',
};

/** /desk/audit: every change made from the desk, newest first. */
export function AuditPage() {
  const [pages, setPages] = useState<(string | null)[]>([null]);
  const after = pages.at(-1) ?? null;
  const [page] = useDeskData(after ?? 'first', (signal) => fetchAudit(after, signal));
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <p className="desk__lede">
        Every change made from the desk: who, when, and what it was before and after.
      </p>
      {page.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {page.state === 'error' && <p role="alert">{describeError(page.error)}</p>}
      {page.state === 'ready' &&
        (page.data.entries.length === 0 ? (
          <p>Nothing yet.</p>
        ) : (
          <>
            <AuditList entries={page.data.entries} linkMembers />
            <DeskPager
              cursors={pages}
              next={page.data.next}
              onCursors={setPages}
              labels={['Newer', 'Older']}
            />
          </>
        ))}
    </section>
  );
}

export function AuditList({
  entries,
  linkMembers = false,
}: {
  entries: DeskAuditEntry[];
  linkMembers?: boolean;
}) {
  return (
    <ol className="desk-audit">
      {entries.map((entry) => (
        <li key={entry.id}>
          <p>
            <strong>{entry.actorEmail}</strong> {ACTIONS[entry.action] ?? entry.action}
            {linkMembers && entry.targetUserId && (
              <>
                {' '}
                for{' '}
                <Link to={`/desk/members/${entry.targetUserId}`}>
                  member {entry.targetUserId.slice(0, 8)}…
                </Link>
              </>
            )}{' '}
            <span className="desk__when">{formatDateTime(entry.createdAt)}</span>
          </p>
          <details>
            <summary>Before and after</summary>
            <div className="desk-audit__states">
              <pre aria-label="Before">{JSON.stringify(entry.before, null, 2)}</pre>
              <pre aria-label="After">{JSON.stringify(entry.after, null, 2)}</pre>
            </div>
          </details>
        </li>
      ))}
    </ol>
  );
}
