import { useId, useState, type FormEvent } from 'react';
import { FormError } from '../../components/form-field';
import { WEBHOOK_EVENTS, type DeskWebhook, type WebhookEvent } from '../../../../contract/webhooks';
import { formatDateTime } from './desk-format';
import { OutcomeNote, type Outcome } from './outcome';
import { describeError, useDeskData, useDeskRequest } from './use-desk-data';
import { addWebhook, fetchWebhooks, removeWebhook } from './webhooks-api';

/** What each event means, as the owner picks one. */
const EVENT_LABELS: Record<WebhookEvent, string> = {
  'post.published': 'A post is published',
  'post.unpublished': 'A post is unpublished',
  'member.added': 'A member is added',
  'member.deleted': 'A member is deleted',
};

/**
 * An integration's webhooks on the Integrations page (docs/ghost-api.md#webhooks): each event and
 * the address it is sent to, with its last outcome; owners who may change things add and remove
 * them. Signed with the secret given, as Ghost signs.
 */
export function IntegrationWebhooks({
  integrationId,
  mayChange,
}: {
  integrationId: string;
  mayChange: boolean;
}) {
  const [list, reload] = useDeskData(`webhooks-${integrationId}`, (signal) =>
    fetchWebhooks(integrationId, signal),
  );
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [adding, setAdding] = useState(false);

  async function remove(webhook: DeskWebhook) {
    setOutcome(null);
    try {
      await removeWebhook(integrationId, webhook.id);
      setOutcome({ ok: true, text: `Removed the webhook to ${webhook.targetUrl}.` });
      reload();
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    }
  }

  return (
    <div className="desk-webhooks">
      <h4>Webhooks</h4>
      {list.state === 'error' && <p role="alert">{describeError(list.error)}</p>}
      {list.state === 'ready' && list.data.webhooks.length === 0 && (
        <p className="desk-integrations__hint">None: nothing is sent to other services.</p>
      )}
      {list.state === 'ready' && list.data.webhooks.length > 0 && (
        <ul className="desk-webhooks__list">
          {list.data.webhooks.map((webhook) => (
            <li key={webhook.id}>
              <span>
                <strong>{webhook.event}</strong> → <code>{webhook.targetUrl}</code>
                <span className="desk-integrations__hint">
                  {webhook.signed ? ' Signed.' : ' Not signed.'}{' '}
                  {webhook.lastTriggeredAt
                    ? `Last sent ${formatDateTime(webhook.lastTriggeredAt)}: ${webhook.lastStatus ?? ''}.`
                    : 'Not sent yet.'}
                </span>
              </span>
              {mayChange && (
                <button
                  type="button"
                  className="button button--outline"
                  aria-label={`Remove the ${webhook.event} webhook to ${webhook.targetUrl}`}
                  onClick={() => void remove(webhook)}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {mayChange &&
        (adding ? (
          <NewWebhook
            integrationId={integrationId}
            onDone={(added) => {
              setAdding(false);
              if (added) {
                setOutcome({ ok: true, text: `Added: ${added.event} goes to ${added.targetUrl}.` });
                reload();
              }
            }}
          />
        ) : (
          <p>
            <button
              type="button"
              className="button button--outline"
              onClick={() => {
                setOutcome(null);
                setAdding(true);
              }}
            >
              Add a webhook
            </button>
          </p>
        ))}
      <OutcomeNote outcome={outcome} />
    </div>
  );
}

function NewWebhook({
  integrationId,
  onDone,
}: {
  integrationId: string;
  onDone: (added: DeskWebhook | null) => void;
}) {
  const id = useId();
  const [event, setEvent] = useState<WebhookEvent>('post.published');
  const [targetUrl, setTargetUrl] = useState('');
  const [secret, setSecret] = useState('');
  const { problem, busy, run } = useDeskRequest();

  function submit(formEvent: FormEvent) {
    formEvent.preventDefault();
    void run(
      () => addWebhook(integrationId, { event, targetUrl, ...(secret.trim() && { secret }) }),
      ({ webhook }) => onDone(webhook),
    );
  }

  return (
    <form className="desk-webhooks__new" onSubmit={submit}>
      <label className="desk-field">
        <span>Event</span>
        <select value={event} onChange={(change) => setEvent(change.target.value as WebhookEvent)}>
          {WEBHOOK_EVENTS.map((name) => (
            <option key={name} value={name}>
              {EVENT_LABELS[name]} ({name})
            </option>
          ))}
        </select>
      </label>
      <label className="desk-field">
        <span>Target URL</span>
        <input
          type="url"
          required
          value={targetUrl}
          placeholder="https://hooks.example.com/cohort"
          onChange={(change) => setTargetUrl(change.target.value)}
        />
      </label>
      <label className="desk-field">
        <span>Secret (optional: signs each request)</span>
        <input
          value={secret}
          maxLength={200}
          autoComplete="off"
          aria-describedby={`${id}-secret`}
          onChange={(change) => setSecret(change.target.value)}
        />
        <small id={`${id}-secret`} className="desk-integrations__hint">
          Sent as X-Ghost-Signature, as Ghost signs.
        </small>
      </label>
      <p className="button-row">
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Adding…' : 'Add webhook'}
        </button>
        <button type="button" className="button button--outline" onClick={() => onDone(null)}>
          Cancel
        </button>
      </p>
      <FormError message={problem} />
    </form>
  );
}
