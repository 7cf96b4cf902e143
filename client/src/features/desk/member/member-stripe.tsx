import type { DeskMember } from '../../../../../contract/desk-api';
import { formatDate, formatDateTime } from '../desk-format';
import { DeskTable } from '../desk-table';
import { MemberSection } from './member-section';
import { StripeLink } from './stripe-link';

/** What an event did, in words: null is an event recorded before the desk kept outcomes. */
function describeOutcome(outcome: string | null): string {
  if (outcome === 'applied') return 'Applied to the ledger';
  if (outcome === 'recorded') return 'Recorded, nothing to apply';
  return 'Recorded before the desk';
}

/** The member's subscriptions as Stripe has them. */
export function MemberSubscriptions({
  subscriptions,
}: {
  subscriptions: DeskMember['subscriptions'];
}) {
  return (
    <MemberSection title="Subscriptions" count={subscriptions.length} empty="No subscription.">
      <DeskTable cards columns={['Subscription', 'Status at Stripe', 'Started', 'Ended']}>
        {subscriptions.map((subscription) => (
          <tr key={subscription.id}>
            <td data-label="Subscription">
              <StripeLink id={subscription.id} url={subscription.stripeUrl} />
            </td>
            <td data-label="Status">{subscription.status}</td>
            <td data-label="Started">{formatDate(subscription.createdAt)}</td>
            <td data-label="Ended">
              {subscription.endedAt ? formatDate(subscription.endedAt) : '—'}
            </td>
          </tr>
        ))}
      </DeskTable>
    </MemberSection>
  );
}

/** The Stripe events received about the member, and what each did to the ledger. */
export function MemberStripeEvents({ events }: { events: DeskMember['events'] }) {
  return (
    <MemberSection
      title="Stripe events"
      count={events.length}
      empty="No Stripe event recorded for this member."
    >
      <DeskTable cards columns={['Event', 'Outcome', 'Received', 'Object']}>
        {events.map((event) => (
          <tr key={event.id}>
            <td data-label="Event">
              <StripeLink id={event.type} url={event.stripeUrl} />
            </td>
            <td data-label="Outcome">
              {describeOutcome(event.outcome)}
              {event.notes && <span className="desk__note">{event.notes}</span>}
            </td>
            <td data-label="Received">{formatDateTime(event.receivedAt)}</td>
            <td data-label="Object" className="desk__mono">
              {event.objectId ?? '—'}
            </td>
          </tr>
        ))}
      </DeskTable>
    </MemberSection>
  );
}
