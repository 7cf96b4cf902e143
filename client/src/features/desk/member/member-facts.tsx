import type { DeskMember } from '../../../../../contract/desk-api';
import { describeMembership, describeNewsletterState, formatDate } from '../desk-format';
import { StripeLink } from './stripe-link';

/** Who the member is: membership, newsletter, ids, when they joined, their Stripe customers. */
export function MemberFacts({ member }: { member: DeskMember }) {
  const { user } = member;
  return (
    <dl className="desk-facts">
      <div>
        <dt>Membership</dt>
        <dd>
          <span className={user.isMember ? 'desk-badge desk-badge--on' : 'desk-badge'}>
            {user.isMember ? 'Member' : 'Not a member'}
          </span>{' '}
          {describeMembership(user.membership, user.isMember)}
        </dd>
      </div>
      <div>
        <dt>Newsletter</dt>
        <dd>
          <span
            className={
              user.newsletter?.state === 'confirmed' ? 'desk-badge desk-badge--on' : 'desk-badge'
            }
          >
            {describeNewsletterState(user.newsletter?.state ?? null)}
          </span>
          {user.newsletter && ` since ${formatDate(user.newsletter.since)}`}
        </dd>
      </div>
      <div>
        <dt>User id</dt>
        <dd className="desk__mono">{user.id}</dd>
      </div>
      <div>
        <dt>Joined</dt>
        <dd>{formatDate(user.createdAt)}</dd>
      </div>
      {user.mergedIds.length > 0 && (
        <div>
          <dt>Paid anonymously as</dt>
          <dd className="desk__mono">{user.mergedIds.join(', ')}</dd>
        </div>
      )}
      <div>
        <dt>Stripe customers</dt>
        <dd>
          {member.customers.length === 0
            ? 'None'
            : member.customers.map((customer) => (
                <StripeLink key={customer.id} id={customer.id} url={customer.stripeUrl} />
              ))}
        </dd>
      </div>
    </dl>
  );
}
