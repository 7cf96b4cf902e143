import { useState, type FormEvent } from 'react';
import { FormError, FormField } from '../../components/form-field';
import { describeFailure } from '../../lib/api-client';
import { formatDate } from '../../lib/format-date';
import { useLoadOnMount } from '../../lib/use-load-on-mount';
import { PASSKEY_NAME_MAX_LENGTH, type Passkey } from '../../../../contract/passkeys';
import {
  addPasskey,
  listPasskeys,
  passkeyProblem,
  removePasskey,
  renamePasskey,
  useWebAuthnSupport,
} from './passkeys-api';

/** /account's passkeys: the list (named, when added, when last used), adding, renaming, removing. */
export default function Passkeys() {
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const supported = useWebAuthnSupport();
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState('');

  useLoadOnMount(
    listPasskeys,
    (answer) => setPasskeys(answer.passkeys),
    (error) => setProblem(describeFailure(error, 'Could not load your passkeys.')),
  );

  /** Runs a change; answers whether it went through. */
  async function run(
    action: () => Promise<{ passkeys: Passkey[] }>,
    done: string,
    fallback = 'Could not reach the server.',
  ): Promise<boolean> {
    setBusy(true);
    setProblem(null);
    setNotice(null);
    try {
      setPasskeys((await action()).passkeys);
      setNotice(done);
      return true;
    } catch (error) {
      setProblem(passkeyProblem(error, fallback));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function onAdd(event: FormEvent) {
    event.preventDefault();
    if (
      await run(
        () => addPasskey(name),
        'Passkey added. You can sign in with it now.',
        'Could not add a passkey.',
      )
    ) {
      setName('');
    }
  }

  return (
    <section className="panel" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p>
        Sign in with this device’s fingerprint, face or screen lock instead of your password. A
        passkey cannot be guessed or phished.
      </p>
      {passkeys && passkeys.length > 0 && (
        <ul className="passkeys" aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <PasskeyItem
              key={passkey.id}
              passkey={passkey}
              busy={busy}
              onRename={(newName) =>
                run(() => renamePasskey(passkey.id, newName), 'Passkey renamed.')
              }
              onRemove={() =>
                void run(
                  () => removePasskey(passkey.id),
                  `“${passkey.name}” was removed: it no longer signs in.`,
                )
              }
            />
          ))}
        </ul>
      )}
      {passkeys?.length === 0 && <p className="passkeys__none">You have no passkeys yet.</p>}
      {supported ? (
        <form className="passkeys__add" onSubmit={(event) => void onAdd(event)} noValidate>
          <FormField
            label="Name (optional)"
            name="passkey-name"
            autoComplete="off"
            maxLength={PASSKEY_NAME_MAX_LENGTH}
            value={name}
            onChange={(event) => setName(event.target.value)}
            hint="Left empty, it is named after this browser. You can rename it later."
          />
          <button className="button" disabled={busy}>
            Add a passkey
          </button>
        </form>
      ) : (
        <p>This browser cannot make passkeys.</p>
      )}
      {notice && <p role="status">{notice}</p>}
      <FormError message={problem ?? undefined} />
    </section>
  );
}

function PasskeyItem({
  passkey,
  busy,
  onRename,
  onRemove,
}: {
  passkey: Passkey;
  busy: boolean;
  onRename(name: string): Promise<boolean>;
  onRemove(): void;
}) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);

  async function onSave(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setError('Give the passkey a name.');
      return;
    }
    setError(null);
    if (await onRename(name)) setEditing(false);
  }

  return (
    <li className="passkey">
      {editing ? (
        <form className="passkey__rename" onSubmit={(event) => void onSave(event)} noValidate>
          <FormField
            label={`New name for “${passkey.name}”`}
            name="passkey-new-name"
            autoComplete="off"
            maxLength={PASSKEY_NAME_MAX_LENGTH}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={error}
          />
          <span className="button-row">
            <button className="button" disabled={busy}>
              Save
            </button>
            <button
              type="button"
              className="button button--outline"
              onClick={() => {
                setEditing(false);
                setName(passkey.name);
                setError(null);
              }}
            >
              Cancel
            </button>
          </span>
        </form>
      ) : (
        <>
          <span className="passkey__name">
            {passkey.name}
            {passkey.synced && <span className="passkey__synced"> · synced</span>}
          </span>
          <span className="passkey__when">
            Added {formatDate(passkey.createdAt)} ·{' '}
            {passkey.lastUsedAt ? `last used ${formatDate(passkey.lastUsedAt)}` : 'never used yet'}
          </span>
          <span className="passkey__actions">
            <button
              type="button"
              className="button button--outline"
              disabled={busy}
              aria-label={`Rename ${passkey.name}`}
              onClick={() => setEditing(true)}
            >
              Rename
            </button>
            <button
              type="button"
              className="button button--outline"
              disabled={busy}
              aria-label={`Remove ${passkey.name}`}
              onClick={onRemove}
            >
              Remove
            </button>
          </span>
        </>
      )}
    </li>
  );
}
