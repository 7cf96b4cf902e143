import { useState } from 'react';
import { ConfirmBox } from './confirm-box';
import { formatDateTime } from './desk-format';
import { OutcomeLines, type Outcome } from './outcome';
import { fetchStaffToken, makeStaffToken } from './profile-api';
import { describeError, useDeskData } from './use-desk-data';

/**
 * The profile page's staff access token (docs/ghost-api.md#connecting-ia-writer): a key of the
 * staff member's own for writing apps made for Ghost (iA Writer, Ulysses), acting with their role.
 * Made here and shown once; making a new one stops the old.
 */
export function StaffTokenPanel() {
  const [state, reload] = useDeskData('staff-token', (signal) => fetchStaffToken(signal));
  const [token, setToken] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [confirming, setConfirming] = useState(false);
  const has = state.state === 'ready' && state.data.keyId !== null;
  const siteUrl = typeof window === 'undefined' ? '' : window.location.origin;

  async function make() {
    setConfirming(false);
    setBusy(true);
    setOutcome(null);
    try {
      setToken((await makeStaffToken()).token);
      reload();
      setOutcome({ ok: true, text: 'Copy it now: it is not shown again.' });
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    if (!token) return;
    try {
      await navigator.clipboard.writeText(token);
      setOutcome({ ok: true, text: 'Copied.' });
    } catch {
      setOutcome({ ok: false, text: 'Copying did not work here: select the token and copy it.' });
    }
  }

  return (
    <section className="desk-token" aria-labelledby="token-title">
      <h2 id="token-title">Staff access token</h2>
      <p className="desk-profile__hint">
        For writing apps made for Ghost, such as iA Writer and Ulysses: give them this site’s
        address, <code>{siteUrl}</code>, and this token. They write as you, with what your role
        allows.
      </p>
      {state.state === 'error' && <p role="alert">{describeError(state.error)}</p>}
      {state.state === 'ready' && (
        <p className="desk-profile__hint">
          {state.data.keyId && state.data.createdAt
            ? `You have a token, made ${formatDateTime(state.data.createdAt)} (id ${state.data.keyId}).`
            : 'You have no token yet.'}
        </p>
      )}
      {token && (
        <div className="desk-token__shown">
          <label className="desk-field">
            <span>Your token</span>
            <input readOnly value={token} onFocus={(event) => event.target.select()} />
          </label>
          <button type="button" className="button button--outline" onClick={() => void copy()}>
            Copy
          </button>
        </div>
      )}
      {confirming ? (
        <ConfirmBox
          confirmLabel="Make a new token"
          onConfirm={() => void make()}
          onCancel={() => setConfirming(false)}
          busy={busy}
        >
          The token you have stops working at once: every app that uses it needs the new one.
        </ConfirmBox>
      ) : (
        <p className="desk-profile__actions">
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => (has ? setConfirming(true) : void make())}
          >
            {busy ? 'Making…' : has ? 'Make a new token' : 'Make a token'}
          </button>
        </p>
      )}
      <OutcomeLines outcome={outcome} />
    </section>
  );
}
