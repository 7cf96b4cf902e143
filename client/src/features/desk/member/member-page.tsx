import type { DeskStaff } from '../../../../../contract/desk-api';
import { ApiError } from '../../../lib/api-client';
import { Link, useParams } from '../../../lib/router';
import { fetchMember } from '../desk-api';
import { describeError, useDeskData } from '../use-desk-data';
import { MemberActions } from './member-actions';
import { MemberAudit, MemberPerkClaims, MemberSessions } from './member-activity';
import { MemberFacts } from './member-facts';
import { MemberLedger } from './member-ledger';
import { MemberStripeEvents, MemberSubscriptions } from './member-stripe';

/** /desk/members/:id: everything about one member, and what an owner can do for them. */
export function MemberPage({ staff }: { staff: DeskStaff }) {
  const { id = '' } = useParams();
  const [member, reload] = useDeskData(id, (signal) => fetchMember(id, signal));
  if (member.state === 'loading') return <p className="desk__loading">Loading…</p>;
  if (member.state === 'error') {
    return (
      <p role="alert">
        {member.error instanceof ApiError && member.error.status === 404
          ? 'There is no such member.'
          : describeError(member.error)}{' '}
        <Link to="/desk">Back to the members</Link>
      </p>
    );
  }
  const { data } = member;
  return (
    <article className="desk-member" aria-labelledby="member-title">
      <p className="desk__back">
        <Link to="/desk">← Members</Link>
      </p>
      <h1 id="member-title">{data.user.email ?? 'Anonymous payer'}</h1>
      <MemberFacts member={data} />
      <MemberActions staff={staff} member={data} onChanged={reload} />
      <MemberLedger
        ledger={data.ledger}
        memberId={data.user.id}
        canEnd={staff.canChange}
        onChanged={reload}
      />
      <MemberSubscriptions subscriptions={data.subscriptions} />
      <MemberStripeEvents events={data.events} />
      <MemberSessions sessions={data.sessions} />
      <MemberPerkClaims claims={data.perkClaims} />
      <MemberAudit entries={data.audit} />
    </article>
  );
}
