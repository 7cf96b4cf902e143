import { useId, useState, type FormEvent } from 'react';
import type { DeskStaff } from '../../../../contract/desk-api';
import type { DeskSeats } from '../../../../contract/seats';
import { ConfirmBox } from './confirm-box';
import { decideSeatRequest, fetchSeats, setSeatsPerMonth } from './desk-api';
import { formatMoney, formatShortDate } from './desk-format';
import { DeskTable } from './desk-table';
import { OutcomeLines, useListOutcome, type Outcome, type RowReport } from './outcome';
import { useFocusOnChange } from './use-focus-on-change';
import { describeError, useDeskData } from './use-desk-data';

type SeatRequest = DeskSeats['requests'][number];
type SeatFunding = DeskSeats['fundings'][number];

/** The most a month's number can be (contract/seats.ts). */
const MAX_PER_MONTH = 10_000;

/** Who asked, in words: an account deleted since has no address. */
const readerOf = (request: SeatRequest) => request.email ?? 'a reader with no address';

const seatsWord = (count: number) => (count === 1 ? '1 seat' : `${count} seats`);

/**
 * /desk/seats: the solidarity seats, years supporters paid for readers who cannot pay.
 * An owner grants or declines each request, and sets how many are granted on their own each month
 * (oldest first, while the pool has seats); editors see it all and change nothing.
 */
export function SeatsPage({ staff }: { staff: DeskStaff }) {
  const [seats, reload] = useDeskData('seats', (signal) => fetchSeats(signal));
  const mayChange = staff.role === 'owner';
  const { outcome, report } = useListOutcome(reload);
  return (
    <section aria-labelledby="seats-title">
      <h1 id="seats-title">Solidarity seats</h1>
      <p className="desk__lede">
        Years that supporters paid for readers who cannot pay. Grant a request from the pool, or let
        a number each month be granted on their own, oldest first.
      </p>
      {seats.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {seats.state === 'error' && <p role="alert">{describeError(seats.error)}</p>}
      {seats.state === 'ready' && (
        <>
          <ul className="desk-figures desk-figures--three" aria-label="The pool now">
            <li>
              <strong>{seats.data.seats.pool.given}</strong> given
            </li>
            <li>
              <strong>{seats.data.seats.pool.available}</strong> available in the pool
            </li>
            <li>
              <strong>{seats.data.seats.pool.waiting}</strong> waiting
            </li>
          </ul>
          {mayChange ? (
            <AutoGrant seats={seats.data.seats} onSaved={reload} />
          ) : (
            <p className="desk__lede">
              {`Granted on their own each month: ${seats.data.seats.autoGrantPerMonth || 'none'}.`}{' '}
              {seats.data.seats.grantedThisMonth} granted this month.
            </p>
          )}
          <h2 id="seat-requests-title">Requests</h2>
          <OutcomeLines outcome={outcome} />
          {mayChange &&
            seats.data.seats.pool.available === 0 &&
            seats.data.seats.pool.waiting > 0 && (
              <p className="desk-plan__about desk-seats__hint">
                The pool is empty: a request can be granted once a supporter funds a seat.
              </p>
            )}
          {seats.data.seats.requests.length === 0 ? (
            <p className="desk__empty">No request waiting, and none decided in the last 90 days.</p>
          ) : (
            <DeskTable
              caption="Waiting first, oldest first; then those decided in the last 90 days"
              columns={['Reader', 'Note', 'Asked', 'State']}
              actions={mayChange}
            >
              {seats.data.seats.requests.map((request) => (
                <RequestRow
                  key={request.id}
                  request={request}
                  mayChange={mayChange}
                  report={report}
                />
              ))}
            </DeskTable>
          )}
          <h2 id="seat-fundings-title">Fundings</h2>
          {seats.data.seats.fundings.length === 0 ? (
            <p className="desk__empty">No supporter has funded a seat yet.</p>
          ) : (
            <DeskTable
              caption="Seats paid for, newest first"
              columns={['Supporter', 'Seats', 'In use', 'Paid', 'State']}
            >
              {seats.data.seats.fundings.map((funding) => (
                <FundingRow key={funding.id} funding={funding} />
              ))}
            </DeskTable>
          )}
        </>
      )}
    </section>
  );
}

/** An owner's monthly number: how many waiting requests are granted on their own. */
function AutoGrant({ seats, onSaved }: { seats: DeskSeats; onSaved: () => void }) {
  const [value, setValue] = useState(String(seats.autoGrantPerMonth));
  // A new number read from the server (another owner's) puts the field back to it.
  const [read, setRead] = useState(seats.autoGrantPerMonth);
  if (read !== seats.autoGrantPerMonth) {
    setRead(seats.autoGrantPerMonth);
    setValue(String(seats.autoGrantPerMonth));
  }
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const fieldId = useId();

  async function save(event: FormEvent) {
    event.preventDefault();
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || number > MAX_PER_MONTH) {
      setOutcome({ ok: false, text: `A whole number from 0 to ${MAX_PER_MONTH}.` });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const { seats: now } = await setSeatsPerMonth(number);
      const grantedNow = now.grantedThisMonth - seats.grantedThisMonth;
      setOutcome({
        ok: true,
        text:
          `Saved: ${number === 0 ? 'none' : number} granted on their own each month.` +
          (grantedNow > 0
            ? ` ${grantedNow === 1 ? '1 request' : `${grantedNow} requests`} granted just now.`
            : ''),
      });
      onSaved();
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="desk-topic desk-seats__auto"
      onSubmit={(event) => void save(event)}
      aria-label="Granted on their own"
    >
      <div className="desk-field">
        <label htmlFor={fieldId}>Granted on their own each month</label>
        <div className="desk-seats__row">
          <input
            id={fieldId}
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_PER_MONTH}
            step={1}
            value={value}
            required
            onChange={(event) => setValue(event.target.value)}
          />
          <button className="button" type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
      <p className="desk-plan__about">
        {seats.grantedThisMonth} granted this month. The oldest waiting requests go first, while the
        pool has seats; 0 leaves every request to you.
      </p>
      <OutcomeLines outcome={outcome} />
    </form>
  );
}

const REQUEST_STATES: Record<string, string> = {
  open: 'Waiting',
  granted: 'Granted',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
};

function RequestRow({
  request,
  mayChange,
  report,
}: {
  request: SeatRequest;
  mayChange: boolean;
  report: RowReport;
}) {
  return (
    <tr>
      <th scope="row" className="desk-seat__reader">
        {request.email ?? 'No address'}
      </th>
      <td className="desk-seat__note">{request.note}</td>
      <td className="desk-gift__nowrap">{formatShortDate(request.createdAt)}</td>
      <td className="desk-seat__state">
        {REQUEST_STATES[request.state] ?? request.state}
        {request.decidedAt && (
          <span className="desk__note">{formatShortDate(request.decidedAt)}</span>
        )}
      </td>
      {mayChange && (
        <td>{request.state === 'open' && <RequestActions request={request} report={report} />}</td>
      )}
    </tr>
  );
}

function RequestActions({ request, report }: { request: SeatRequest; report: RowReport }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const reader = readerOf(request);
  const box = useFocusOnChange(confirming, 'button');

  async function decide(decision: 'grant' | 'decline') {
    setBusy(true);
    report.start();
    try {
      await decideSeatRequest(request.id, decision);
      report.done({
        ok: true,
        text:
          decision === 'grant'
            ? `Granted a seat to ${reader}.`
            : `Declined the request of ${reader}.`,
      });
      // Stays busy: once the list is read again, the request is decided and has no buttons.
    } catch (error) {
      setBusy(false);
      setConfirming(false);
      report.done({ ok: false, text: describeError(error) });
    }
  }

  return (
    <div ref={box} className="desk-gift__act">
      {confirming ? (
        <ConfirmBox
          confirmLabel="Decline"
          busy={busy}
          onConfirm={() => void decide('decline')}
          onCancel={() => setConfirming(false)}
        >
          Decline the request of {reader}? Nothing is mailed to them; they can ask again.
        </ConfirmBox>
      ) : (
        <p className="button-row desk-gift__actions">
          <button
            type="button"
            className="button desk__small"
            aria-label={`Grant a seat to ${reader}`}
            disabled={busy}
            onClick={() => void decide('grant')}
          >
            {busy ? 'Granting…' : 'Grant'}
          </button>
          <button
            type="button"
            className="button button--outline desk__small"
            aria-label={`Decline the request of ${reader}`}
            disabled={busy}
            onClick={() => setConfirming(true)}
          >
            Decline
          </button>
        </p>
      )}
    </div>
  );
}

const FUNDING_STATES: Record<string, string> = {
  active: 'Active',
  suspended: 'Disputed',
  refunded: 'Refunded',
  revoked: 'Dispute lost',
};

function FundingRow({ funding }: { funding: SeatFunding }) {
  const left = funding.seats - funding.granted;
  const stands = funding.state === 'active';
  return (
    <tr>
      <th scope="row" className="desk-seat__reader">
        {funding.supporterEmail ?? 'No address given'}
        <span className="desk__id">{funding.paymentIntentId}</span>
      </th>
      <td>
        {funding.seats}
        <span className="desk__note">
          {funding.seats === 1 ? 'A year' : 'Years'} of {funding.tierName}
        </span>
      </td>
      <td className="desk-gift__nowrap">
        {funding.granted} of {funding.seats}
      </td>
      <td className="desk-gift__nowrap">
        {formatShortDate(funding.paidAt)}
        <span className="desk__note">{formatMoney(funding.amountCents, funding.currency)}</span>
      </td>
      <td>
        {FUNDING_STATES[funding.state] ?? funding.state}
        {!stands && (
          <span className="desk__note">
            {left === 0
              ? 'Every seat was granted before: they stay given.'
              : `${seatsWord(left)} not yet granted ${left === 1 ? 'is' : 'are'} out of the pool${funding.state === 'suspended' ? ' until the dispute is won' : ''}.`}
          </span>
        )}
      </td>
    </tr>
  );
}
