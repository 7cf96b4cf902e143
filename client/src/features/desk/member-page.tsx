import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useParams } from '../../lib/router';
import type { DeskLedgerEntry, DeskMember, DeskStaff } from '../../../../contract/desk-api';
import { lastDayOf } from '../../../../contract/last-day';
import { ApiError } from '../../lib/api-client';
import {
  endComp,
  endSessions,
  fetchMember,
  grantComp,
  rereadFromStripe,
  sendPasswordReset,
} from './desk-api';
import { AuditList } from './audit-page';
import {
  describeMembership,
  describeNewsletterState,
  formatDate,
  formatDateTime,
  formatMoney,
} from './desk-format';
import { describeError, useDeskData } from './use-desk-data';

const SOURCES: Record<DeskLedgerEntry['source'], string> = {
  'one-time': 'One-time year',
  'subscription-invoice': 'Subscription invoice',
  comp: 'Comp',
  gift: 'Gift (claimed)',
  sponsored: 'Solidarity seat',
};

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
  const { user } = member.data;
  return (
    <article className="desk-member" aria-labelledby="member-title">
      <p className="desk__back">
        <Link to="/desk">← Members</Link>
      </p>
      <h1 id="member-title">{user.email ?? 'Anonymous payer'}</h1>
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
            {member.data.customers.length === 0
              ? 'None'
              : member.data.customers.map((customer) => (
                  <StripeLink key={customer.id} id={customer.id} url={customer.stripeUrl} />
                ))}
          </dd>
        </div>
      </dl>

      <Actions staff={staff} member={member.data} onChanged={reload} />

      <Section title="Ledger" count={member.data.ledger.length} empty="Nothing paid or given yet.">
        <table className="desk-table desk-table--cards">
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">State</th>
              <th scope="col">Amount</th>
              <th scope="col">Paid or given</th>
              <th scope="col">Time it gives</th>
              <th scope="col">At Stripe</th>
            </tr>
          </thead>
          <tbody>
            {member.data.ledger.map((entry) => (
              <LedgerRow
                key={entry.id}
                entry={entry}
                canEnd={staff.canChange}
                memberId={user.id}
                onChanged={reload}
              />
            ))}
          </tbody>
        </table>
      </Section>

      <Section
        title="Subscriptions"
        count={member.data.subscriptions.length}
        empty="No subscription."
      >
        <table className="desk-table desk-table--cards">
          <thead>
            <tr>
              <th scope="col">Subscription</th>
              <th scope="col">Status at Stripe</th>
              <th scope="col">Started</th>
              <th scope="col">Ended</th>
            </tr>
          </thead>
          <tbody>
            {member.data.subscriptions.map((subscription) => (
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
          </tbody>
        </table>
      </Section>

      <Section
        title="Stripe events"
        count={member.data.events.length}
        empty="No Stripe event recorded for this member."
      >
        <table className="desk-table desk-table--cards">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Outcome</th>
              <th scope="col">Received</th>
              <th scope="col">Object</th>
            </tr>
          </thead>
          <tbody>
            {member.data.events.map((event) => (
              <tr key={event.id}>
                <td data-label="Event">
                  <StripeLink id={event.type} url={event.stripeUrl} />
                </td>
                <td data-label="Outcome">
                  {event.outcome === 'applied'
                    ? 'Applied to the ledger'
                    : event.outcome === 'recorded'
                      ? 'Recorded, nothing to apply'
                      : 'Recorded before the desk'}
                  {event.notes && <span className="desk__note">{event.notes}</span>}
                </td>
                <td data-label="Received">{formatDateTime(event.receivedAt)}</td>
                <td data-label="Object" className="desk__mono">
                  {event.objectId ?? '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section
        title="Signed-in browsers"
        count={member.data.sessions.length}
        empty="No browser signed in."
      >
        <ul className="desk-list">
          {member.data.sessions.map((session) => (
            <li key={session.id}>
              {/* The raw User-Agent stays a hover away, for what the words leave out. */}
              <strong title={session.userAgent ?? undefined}>
                {session.browser ?? 'Unknown browser'}
              </strong>
              <span>
                Signed in{' '}
                {session.signedInAt ? formatDateTime(session.signedInAt) : '(before the desk)'};
                last seen {formatDateTime(session.lastSeenAt)}
              </span>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Perks claimed" count={member.data.perkClaims.length} empty="None.">
        <ul className="desk-list">
          {member.data.perkClaims.map((claim) => (
            <li key={`${claim.perkId}-${claim.claimedAt}`}>
              <strong>{claim.perkId}</strong>
              <span>{formatDateTime(claim.claimedAt)}</span>
            </li>
          ))}
        </ul>
      </Section>

      <Section
        title="Changes from the desk"
        count={member.data.audit.length}
        empty="No change made from the desk."
      >
        <AuditList entries={member.data.audit} />
      </Section>
    </article>
  );
}

function Section({
  title,
  count,
  empty,
  children,
}: {
  title: string;
  count: number;
  empty: string;
  children: ReactNode;
}) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="desk-section" aria-labelledby={id}>
      <h2 id={id}>
        {title} <span className="desk__count">{count}</span>
      </h2>
      {count === 0 ? <p className="desk__empty">{empty}</p> : children}
    </section>
  );
}

function StripeLink({ id, url }: { id: string; url: string | null }) {
  if (!url) return <span className="desk__mono">{id}</span>;
  return (
    <a className="desk__mono desk__stripe" href={url} target="_blank" rel="noopener noreferrer">
      {id}
      <span className="visually-hidden"> (opens the Stripe Dashboard in a new tab)</span>
    </a>
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
  const action = useAction(onChanged);
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
            <ActionOutcome action={action} />
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

interface Action {
  busy: boolean;
  message: string | null;
  error: string | null;
  run(call: () => Promise<{ message: string }>): void;
}

/** One action at a time: its answer in words, and the member read again after it. */
function useAction(onDone: () => void): Action {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return {
    busy,
    message,
    error,
    run(call) {
      setBusy(true);
      setMessage(null);
      setError(null);
      call()
        .then(
          (result) => {
            setMessage(result.message);
            onDone();
          },
          (failure: unknown) => {
            setError(failure instanceof Error ? describeError(failure) : String(failure));
          },
        )
        .finally(() => setBusy(false));
    },
  };
}

function ActionOutcome({ action }: { action: Action }) {
  return (
    <>
      <p role="status" className="desk__done">
        {action.message}
      </p>
      {action.error && (
        <p role="alert" className="form-error">
          {action.error}
        </p>
      )}
    </>
  );
}

function Actions({
  staff,
  member,
  onChanged,
}: {
  staff: DeskStaff;
  member: DeskMember;
  onChanged: () => void;
}) {
  const action = useAction(onChanged);
  const [until, setUntil] = useState('');
  const [reason, setReason] = useState('');
  const { user } = member;
  const disabled = !staff.canChange || action.busy;

  function grant(event: FormEvent) {
    event.preventDefault();
    action.run(async () => {
      const result = await grantComp(user.id, { until, reason });
      setUntil('');
      setReason('');
      return result;
    });
  }

  return (
    <section className="desk-section desk-actions" aria-labelledby="actions-title">
      <h2 id="actions-title">Actions</h2>
      {!staff.canChange && (
        <p className="desk__empty">
          {staff.role === 'editor'
            ? 'Editors cannot change anything.'
            : 'Sign in again to change anything (see above).'}
        </p>
      )}
      <div className="button-row">
        {staff.paymentsEnabled && (
          <button
            type="button"
            className="button"
            disabled={disabled}
            onClick={() => action.run(() => rereadFromStripe(user.id))}
          >
            Re-read from Stripe now
          </button>
        )}
        {user.email && (
          <button
            type="button"
            className="button button--outline"
            disabled={disabled}
            onClick={() => action.run(() => sendPasswordReset(user.id))}
          >
            Send a password-reset link
          </button>
        )}
        {user.email && (
          <button
            type="button"
            className="button button--outline"
            disabled={disabled || member.sessions.length === 0}
            onClick={() => {
              if (window.confirm(`Sign ${user.email ?? 'this member'} out of every browser?`)) {
                action.run(() => endSessions(user.id));
              }
            }}
          >
            Sign out everywhere
          </button>
        )}
      </div>
      <form className="desk-comp" onSubmit={grant}>
        <h3>Grant a comp membership</h3>
        <label className="desk-field">
          <span>Last day (UTC)</span>
          <input
            type="date"
            required
            value={until}
            onChange={(event) => setUntil(event.target.value)}
            disabled={!staff.canChange}
          />
        </label>
        <label className="desk-field desk-comp__reason">
          <span>Reason (kept on the ledger and in the audit log)</span>
          <input
            type="text"
            required
            minLength={3}
            maxLength={500}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            disabled={!staff.canChange}
          />
        </label>
        <button className="button button--accent" disabled={disabled}>
          Grant comp
        </button>
      </form>
      <ActionOutcome action={action} />
    </section>
  );
}
