import type { DeskLedgerEntry } from '../../../../../contract/desk-api';
import { lastDayOf } from '../../../../../contract/last-day';
import { endComp } from '../desk-api';
import { formatDate, formatMoney } from '../desk-format';
import { DeskTable } from '../desk-table';
import { OutcomeLines } from '../outcome';
import { MemberSection } from './member-section';
import { StripeLink } from './stripe-link';
import { useMemberAction } from './use-member-action';

const SOURCES: Record<DeskLedgerEntry['source'], string> = {
  'one-time': 'One-time year',
  'subscription-invoice': 'Subscription invoice',
  comp: 'Comp',
  gift: 'Gift (claimed)',
  sponsored: 'Solidarity seat',
};

/** Every payment and gift of time on the member's ledger, and the time each gives. */
export function MemberLedger({
  ledger,
  memberId,
  canEnd,
  onChanged,
}: {
  ledger: DeskLedgerEntry[];
  memberId: string;
  /** Whether this staff member may end a comp early. */
  canEnd: boolean;
  onChanged: () => void;
}) {
  return (
    <MemberSection title="Ledger" count={ledger.length} empty="Nothing paid or given yet.">
      <DeskTable
        cards
        columns={['Source', 'State', 'Amount', 'Paid or given', 'Time it gives', 'At Stripe']}
      >
        {ledger.map((entry) => (
          <LedgerRow
            key={entry.id}
            entry={entry}
            canEnd={canEnd}
            memberId={memberId}
            onChanged={onChanged}
          />
        ))}
      </DeskTable>
    </MemberSection>
  );
}

function LedgerRow({
  entry,
  canEnd,
  memberId,
  onChanged,
}: {
  entry: DeskLedgerEntry;
  canEnd: boolean;
  memberId: string;
  onChanged: () => void;
}) {
  const action = useMemberAction(onChanged);
  const state =
    entry.state === 'active'
      ? 'Counts'
      : `${entry.state}${entry.stateReason ? ` (${entry.stateReason})` : ''}`;
  return (
    <tr>
      <td data-label="Source">
        {SOURCES[entry.source]}
        {entry.compReason && <span className="desk__note">“{entry.compReason}”</span>}
      </td>
      <td data-label="State">{state}</td>
      <td data-label="Amount">{formatMoney(entry.amountCents, entry.currency)}</td>
      <td data-label="Paid or given">{formatDate(entry.paidAt)}</td>
      <td data-label="Time it gives">
        {entry.covers.length === 0
          ? 'None'
          : entry.covers.map((span) => (
              <span key={span.from} className="desk__span">
                {formatDate(span.from)} → {formatDate(lastDayOf(span.until))}
              </span>
            ))}
        {entry.endable && canEnd && (
          <>
            <button
              type="button"
              className="button button--outline desk__small"
              disabled={action.busy}
              onClick={() => {
                if (window.confirm('End this comp now? The member loses the rest of it.')) {
                  action.run(() => endComp(memberId, entry.id));
                }
              }}
            >
              End comp now
            </button>
            <OutcomeLines outcome={action.outcome} />
          </>
        )}
      </td>
      <td data-label="At Stripe">
        {entry.stripeUrl ? (
          <StripeLink id={entry.paymentIntentId ?? entry.id} url={entry.stripeUrl} />
        ) : (
          '—'
        )}
      </td>
    </tr>
  );
}
