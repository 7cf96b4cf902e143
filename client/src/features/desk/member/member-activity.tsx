import type { DeskMember } from '../../../../../contract/desk-api';
import { AuditList } from '../audit-page';
import { formatDateTime } from '../desk-format';
import { MemberSection } from './member-section';

/** The browsers signed in to the member's account now. */
export function MemberSessions({ sessions }: { sessions: DeskMember['sessions'] }) {
  return (
    <MemberSection title="Signed-in browsers" count={sessions.length} empty="No browser signed in.">
      <ul className="desk-list">
        {sessions.map((session) => (
          <li key={session.id}>
            {/* The raw User-Agent stays a hover away, for what the words leave out. */}
            <strong title={session.userAgent ?? undefined}>
              {session.browser ?? 'Unknown browser'}
            </strong>
            <span>
              Signed in{' '}
              {session.signedInAt ? formatDateTime(session.signedInAt) : '(before the desk)'}; last
              seen {formatDateTime(session.lastSeenAt)}
            </span>
          </li>
        ))}
      </ul>
    </MemberSection>
  );
}

/** The perks the member has claimed, and when. */
export function MemberPerkClaims({ claims }: { claims: DeskMember['perkClaims'] }) {
  return (
    <MemberSection title="Perks claimed" count={claims.length} empty="None.">
      <ul className="desk-list">
        {claims.map((claim) => (
          <li key={`${claim.perkId}-${claim.claimedAt}`}>
            <strong>{claim.perkId}</strong>
            <span>{formatDateTime(claim.claimedAt)}</span>
          </li>
        ))}
      </ul>
    </MemberSection>
  );
}

/** What staff changed for the member, from the audit log. */
export function MemberAudit({ entries }: { entries: DeskMember['audit'] }) {
  return (
    <MemberSection
      title="Changes from the desk"
      count={entries.length}
      empty="No change made from the desk."
    >
      <AuditList entries={entries} />
    </MemberSection>
  );
}
