import { useState, type FormEvent } from 'react';
import type { DeskMember, DeskStaff } from '../../../../../contract/desk-api';
import { endSessions, grantComp, rereadFromStripe, sendPasswordReset } from '../desk-api';
import { OutcomeLines } from '../outcome';
import { TierSelect } from '../tier-select';
import { fetchTiers } from '../tiers-api';
import { useDeskData } from '../use-desk-data';
import { useMemberAction } from './use-member-action';

/** What staff can do for a member: read Stripe again, mail a reset link, sign out, grant a comp. */
export function MemberActions({
  staff,
  member,
  onChanged,
}: {
  staff: DeskStaff;
  member: DeskMember;
  onChanged: () => void;
}) {
  const action = useMemberAction(onChanged);
  const [until, setUntil] = useState('');
  const [reason, setReason] = useState('');
  const [tiers] = useDeskData('comp-tiers', (signal) => fetchTiers(signal));
  const tierList = tiers.state === 'ready' ? tiers.data.tiers : [];
  // The tier a comp gives: the default one (the first visible) unless another is chosen.
  const [chosenTier, setTier] = useState('');
  const tier = chosenTier || (tierList.find((each) => each.visible) ?? tierList[0])?.slug || '';
  const { user } = member;
  const disabled = !staff.canChange || action.busy;

  function grant(event: FormEvent) {
    event.preventDefault();
    action.run(async () => {
      const result = await grantComp(user.id, {
        until,
        reason,
        ...(tierList.length > 1 && tier && { tier }),
      });
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
      <form
        className={tierList.length > 1 ? 'desk-comp desk-comp--tiers' : 'desk-comp'}
        onSubmit={grant}
      >
        <h3>Grant a comp membership</h3>
        <TierSelect tiers={tierList} value={tier} onChange={setTier} disabled={!staff.canChange} />
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
      <OutcomeLines outcome={action.outcome} />
    </section>
  );
}
