import { useState, type FormEvent } from 'react';
import { FormError } from '../../components/form-field';
import type { DeskStaff } from '../../../../contract/desk-api';
import type { DeskGift } from '../../../../contract/gifts';
import { ConfirmBox } from './confirm-box';
import { changeGiftAddress, fetchGifts, resendGift } from './desk-api';
import { formatMoney, formatShortDate } from './desk-format';
import { DeskTable } from './desk-table';
import { OutcomeLines, useListOutcome, type RowReport } from './outcome';
import { useFocusOnChange } from './use-focus-on-change';
import { describeError, useDeskData } from './use-desk-data';

/** Whether a gift's link has gone, or is going now: mailing it again sends one at once. */
const isDue = (gift: DeskGift) => gift.sentAt !== null || Date.parse(gift.sendAt) <= Date.now();

/** Where a gift's claim link stands, in words. */
function describeLink(gift: DeskGift): string {
  if (gift.sentAt) {
    return `Mailed ${formatShortDate(gift.sentAt)}${gift.sentTo ? ` to ${gift.sentTo}` : ''}`;
  }
  return isDue(gift)
    ? `Due ${formatShortDate(gift.sendAt)}: going out now`
    : `Goes on ${formatShortDate(gift.sendAt)}`;
}

/**
 * /desk/gifts: the years bought for someone else, paid for and not claimed yet. An owner mails a
 * claim link again, or to a corrected address (the link mailed before stops working); editors see
 * the list and change nothing.
 */
export function GiftsPage({ staff }: { staff: DeskStaff }) {
  const [gifts, reload] = useDeskData('gifts', (signal) => fetchGifts(signal));
  const mayChange = staff.role === 'owner';
  const { outcome, report } = useListOutcome(reload);
  return (
    <section aria-labelledby="gifts-title">
      <h1 id="gifts-title">Gifts</h1>
      <p className="desk__lede">
        Gifts paid for and not claimed yet. Mail a link again, or to a corrected address: the link
        mailed before stops working.
      </p>
      <OutcomeLines outcome={outcome} />
      {gifts.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {gifts.state === 'error' && <p role="alert">{describeError(gifts.error)}</p>}
      {gifts.state === 'ready' &&
        (gifts.data.gifts.length === 0 ? (
          <p className="desk__empty">No unclaimed gifts.</p>
        ) : (
          <DeskTable
            caption="Unclaimed gifts, newest first"
            columns={['Recipient', 'From', 'Paid', 'Link', 'State']}
            actions={mayChange}
          >
            {gifts.data.gifts.map((gift) => (
              <GiftRow key={gift.id} gift={gift} mayChange={mayChange} report={report} />
            ))}
          </DeskTable>
        ))}
    </section>
  );
}

function GiftRow({
  gift,
  mayChange,
  report,
}: {
  gift: DeskGift;
  mayChange: boolean;
  report: RowReport;
}) {
  const disputed = gift.state === 'suspended';
  return (
    <tr>
      <th scope="row">{gift.recipientEmail}</th>
      <td>
        {gift.fromName ?? (gift.buyerEmail ? null : 'No name given')}
        {gift.buyerEmail && <span className="desk__note">{gift.buyerEmail}</span>}
      </td>
      <td className="desk-gift__nowrap">
        {formatShortDate(gift.paidAt)}
        <span className="desk__note">
          {formatMoney(gift.amountCents, gift.currency)}: a year of {gift.tierName}
        </span>
      </td>
      <td>{describeLink(gift)}</td>
      <td>
        {disputed ? (
          <>
            Disputed
            <span className="desk__note">No link until the dispute is won</span>
          </>
        ) : gift.state === 'active' ? (
          'Active'
        ) : (
          gift.state
        )}
      </td>
      {mayChange && (
        <td>
          <GiftActions gift={gift} disputed={disputed} report={report} />
        </td>
      )}
    </tr>
  );
}

function GiftActions({
  gift,
  disputed,
  report,
}: {
  gift: DeskGift;
  disputed: boolean;
  report: RowReport;
}) {
  const [mode, setMode] = useState<'idle' | 'confirming' | 'address'>('idle');
  const [email, setEmail] = useState(gift.recipientEmail);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const box = useFocusOnChange(mode, 'input, button');

  async function resend() {
    setBusy(true);
    report.start();
    try {
      const { gift: now, mailed } = await resendGift(gift.id);
      setMode('idle');
      report.done({
        ok: true,
        text: mailed
          ? `Mailed a new link to ${now.sentTo ?? now.recipientEmail}.`
          : `Nothing mailed: the link goes on ${formatShortDate(now.sendAt)}.`,
      });
    } catch (error) {
      setMode('idle');
      report.done({ ok: false, text: describeError(error) });
    } finally {
      setBusy(false);
    }
  }

  async function saveAddress(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    report.start();
    try {
      const { gift: now, mailed } = await changeGiftAddress(gift.id, email.trim());
      setMode('idle');
      report.done({
        ok: true,
        text: mailed
          ? `Address changed; mailed a new link to ${now.sentTo ?? now.recipientEmail}.`
          : `Address changed; the link goes on ${formatShortDate(now.sendAt)}.`,
      });
    } catch (error) {
      // Stays open, with what was typed, to be corrected (a gift claimed since leaves the list).
      setProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div ref={box} className="desk-gift__act">
      {mode === 'confirming' && (
        <ConfirmBox
          confirmLabel="Mail a new link"
          busy={busy}
          onConfirm={() => void resend()}
          onCancel={() => setMode('idle')}
        >
          Mail a new link to {gift.recipientEmail}? The link mailed before stops working.
        </ConfirmBox>
      )}
      {mode === 'address' && (
        <form
          className="desk-gift__address"
          onSubmit={(event) => void saveAddress(event)}
          aria-label={`Change the address of the gift to ${gift.recipientEmail}`}
        >
          <label className="desk-field">
            <span>New address</span>
            <input
              type="email"
              value={email}
              required
              autoComplete="off"
              onChange={(event) => setEmail(event.target.value)}
            />
          </label>
          <p className="button-row">
            <button className="button desk__small" type="submit" disabled={busy}>
              {busy ? 'Saving…' : 'Save'}
            </button>
            <button
              type="button"
              className="button button--outline desk__small"
              onClick={() => {
                setMode('idle');
                setProblem(null);
              }}
            >
              Cancel
            </button>
          </p>
          <FormError message={problem} />
        </form>
      )}
      {mode === 'idle' && (
        <p className="button-row desk-gift__actions">
          {isDue(gift) && !disputed && (
            <button
              type="button"
              className="button button--outline desk__small"
              aria-label={`Mail again to ${gift.recipientEmail}`}
              onClick={() => setMode('confirming')}
            >
              Mail again
            </button>
          )}
          <button
            type="button"
            className="button button--outline desk__small"
            aria-label={`Change address of ${gift.recipientEmail}`}
            onClick={() => {
              setEmail(gift.recipientEmail);
              setMode('address');
            }}
          >
            Change address
          </button>
        </p>
      )}
    </div>
  );
}
