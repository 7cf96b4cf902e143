import { useState, type FormEvent } from 'react';
import { FormError } from '../../components/form-field';
import type { DeskStaff } from '../../../../contract/desk-api';
import {
  MAX_INTEGRATION_NAME,
  type CreatedIntegration,
  type Integration,
} from '../../../../contract/integrations-api';
import { ConfirmBox } from './confirm-box';
import { IntegrationWebhooks } from './integration-webhooks';
import { formatDateTime } from './desk-format';
import { createIntegration, deleteIntegration, fetchIntegrations } from './integrations-api';
import integrationsCss from './integrations-page.css?inline';
import { OutcomeLines, type Outcome } from './outcome';
import { describeError, useDeskData, useDeskRequest } from './use-desk-data';

/**
 * /desk/integrations (owners): keys for tools made for Ghost (docs/ghost-api.md). Making one shows
 * its Content API key and Admin API key once, with the API URL to paste beside them; the list
 * shows only enough to tell them apart. Deleting one stops both its keys at once.
 */
export function IntegrationsPage({ staff }: { staff: DeskStaff }) {
  const [list, reload] = useDeskData('integrations', (signal) => fetchIntegrations(signal));
  const [made, setMade] = useState<CreatedIntegration | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const apiUrl = list.state === 'ready' ? list.data.apiUrl : window.location.origin;

  return (
    <section aria-labelledby="integrations-title" className="desk-integrations">
      <style>{integrationsCss}</style>
      <h1 id="integrations-title">Integrations</h1>
      <p className="desk__lede">
        Keys for tools made for Ghost: headless front ends (Next.js, Astro, Gatsby) read the
        published posts with the Content API key; automation and writing tools publish with the
        Admin API key. Each key is shown once, when the integration is made.
      </p>
      <OutcomeLines outcome={outcome} />
      {made && <NewKeys integration={made} apiUrl={apiUrl} onDone={() => setMade(null)} />}
      {staff.canChange && (
        <NewIntegration
          onMade={(integration) => {
            setMade(integration);
            setOutcome({
              ok: true,
              text: `Made “${integration.name}”: copy its keys now, they are not shown again.`,
            });
            reload();
          }}
        />
      )}
      <h2>Your integrations</h2>
      {list.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {list.state === 'error' && <p role="alert">{describeError(list.error)}</p>}
      {list.state === 'ready' &&
        (list.data.integrations.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <ul className="desk-integrations__list">
            {list.data.integrations.map((integration) => (
              <li key={integration.id}>
                <IntegrationRow
                  integration={integration}
                  mayChange={staff.canChange}
                  onDeleted={() => {
                    if (made?.id === integration.id) setMade(null);
                    setOutcome({
                      ok: true,
                      text: `Deleted “${integration.name}”: its keys no longer work.`,
                    });
                    reload();
                  }}
                  onFailed={(error) => setOutcome({ ok: false, text: describeError(error) })}
                />
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}

function NewIntegration({ onMade }: { onMade: (integration: CreatedIntegration) => void }) {
  const [name, setName] = useState('');
  const { problem, busy, run } = useDeskRequest();

  function submit(event: FormEvent) {
    event.preventDefault();
    void run(
      () => createIntegration({ name }),
      ({ integration }) => {
        setName('');
        onMade(integration);
      },
    );
  }

  return (
    <form className="desk-integrations__new" onSubmit={submit}>
      <label className="desk-field">
        <span>Name (what the tool is)</span>
        <input
          value={name}
          required
          maxLength={MAX_INTEGRATION_NAME}
          placeholder="Our Astro site"
          onChange={(event) => setName(event.target.value)}
        />
      </label>
      <button type="submit" className="button" disabled={busy}>
        {busy ? 'Making…' : 'Make an integration'}
      </button>
      <FormError message={problem} />
    </form>
  );
}

/** The new integration's keys, this once, each with a Copy button. */
function NewKeys({
  integration,
  apiUrl,
  onDone,
}: {
  integration: CreatedIntegration;
  apiUrl: string;
  onDone: () => void;
}) {
  return (
    <section className="desk-integrations__keys" aria-labelledby="keys-title">
      <h2 id="keys-title">Keys for “{integration.name}”</h2>
      <p className="desk-integrations__hint">
        Copy them now: once you leave this page they cannot be shown again (delete the integration
        and make another if one is lost).
      </p>
      <CopyField label="API URL" value={apiUrl} />
      <CopyField label="Content API key" value={integration.contentKey} />
      <CopyField label="Admin API key" value={integration.adminKey} />
      <p>
        <button type="button" className="button button--outline" onClick={onDone}>
          I have copied them
        </button>
      </p>
    </section>
  );
}

function CopyField({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied.');
    } catch {
      setCopied('Copying did not work here: select the text and copy it.');
    }
  }
  return (
    <div className="desk-integrations__copy">
      <label className="desk-field">
        <span>{label}</span>
        <input readOnly value={value} onFocus={(event) => event.target.select()} />
      </label>
      <button
        type="button"
        className="button button--outline"
        aria-label={`Copy the ${label}`}
        onClick={() => void copy()}
      >
        Copy
      </button>
      <span role="status" className="desk-integrations__copied">
        {copied ?? ''}
      </span>
    </div>
  );
}

function IntegrationRow({
  integration,
  mayChange,
  onDeleted,
  onFailed,
}: {
  integration: Integration;
  mayChange: boolean;
  onDeleted: () => void;
  onFailed: (error: unknown) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  async function remove() {
    setBusy(true);
    try {
      await deleteIntegration(integration.id);
      onDeleted();
    } catch (error) {
      onFailed(error);
      setBusy(false);
      setConfirming(false);
    }
  }

  return (
    <article className="desk-integrations__row" aria-label={integration.name}>
      <div>
        <h3>{integration.name}</h3>
        <p className="desk-integrations__hint">
          Made {formatDateTime(integration.createdAt)}
          {integration.createdBy && ` by ${integration.createdBy}`} · Content key …
          {integration.contentKeyHint} · Admin key id {integration.adminKeyId}
        </p>
      </div>
      {mayChange &&
        (confirming ? (
          <ConfirmBox
            confirmLabel="Delete it"
            busy={busy}
            onConfirm={() => void remove()}
            onCancel={() => setConfirming(false)}
          >
            Delete “{integration.name}”? Both its keys stop working at once: every tool that uses
            them loses access.
          </ConfirmBox>
        ) : (
          <button
            type="button"
            className="button button--outline"
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        ))}
      <IntegrationWebhooks integrationId={integration.id} mayChange={mayChange} />
    </article>
  );
}
