import { useEffect, useState } from 'react';
import type { PostJson } from '../../../../../contract/posts';
import { ConfirmBox } from '../confirm-box';
import {
  fetchNewsletterStatus,
  sendNewsletter,
  sendNewsletterTest,
  type NewsletterStatus,
} from './post-api';

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * Mailing a newsletter issue (or an article, as one) from the desk: a test copy to yourself (with what is in the editor),
 * then, once the issue is published, the issue to every confirmed subscriber after a confirmation
 * that says how many, with its progress while it goes out.
 */
export function NewsletterPanel({
  post,
  changes,
  mayPublish,
}: {
  post: PostJson;
  changes: Record<string, unknown>;
  mayPublish: boolean;
}) {
  const [status, setStatus] = useState<NewsletterStatus | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);

  // Read once, and every two seconds while a send is under way.
  const going = status !== null && (status.sending || status.deliveries.queued > 0);
  useEffect(() => {
    let stopped = false;
    const read = () =>
      fetchNewsletterStatus(post.id).then(
        ({ status: next }) => !stopped && setStatus(next),
        () => {},
      );
    void read();
    if (!going) return () => void (stopped = true);
    const timer = setInterval(() => void read(), 2_000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [post.id, post.version, going]);

  const fail = (error: unknown) =>
    setMessage({ ok: false, text: error instanceof Error ? error.message : 'That did not work.' });

  const live = post.status === 'published';
  // A members-only issue goes to members alone; a members-only article to everyone, split.
  const onlyMembers = post.kind === 'newsletter' && post.visibility === 'members';
  const audience = onlyMembers ? ['member', 'members'] : ['subscriber', 'subscribers'];
  return (
    <section className="post-editor__mail" aria-labelledby="mail-title">
      <h2 id="mail-title">Mail it</h2>
      {post.kind === 'article' && (
        <p className="desk__small">
          Mailed to the newsletter’s subscribers as an issue.
          {post.visibility === 'members' &&
            ' Members get all of it; the others get it up to the “Members only from here” line, with a link to join.'}
        </p>
      )}
      {status && (
        <p className="desk__small" role="status">
          {status.recipients > 0
            ? `Goes to ${count(status.recipients, `confirmed ${audience[0]}`, `confirmed ${audience[1]}`)} who have not had it.`
            : 'Every confirmed subscriber has had it.'}
          {status.deliveries.sent + status.deliveries.failed + status.deliveries.queued > 0 &&
            ` Sent ${status.deliveries.sent.toLocaleString('en-US')} · failed ${status.deliveries.failed} · waiting ${status.deliveries.queued.toLocaleString('en-US')}.`}
          {!status.mailing && ' SMTP_URL is not set: mail goes to the server’s log.'}
        </p>
      )}
      {message && (
        <p
          className={message.ok ? 'desk__done' : 'form-error'}
          role={message.ok ? undefined : 'alert'}
        >
          {message.text}
        </p>
      )}
      {confirming && status && (
        <ConfirmBox
          confirmLabel="Yes, send"
          onConfirm={() => {
            setConfirming(false);
            sendNewsletter(post.id, status.recipients).then(({ status: next }) => {
              setStatus(next);
              setMessage({ ok: true, text: 'Sending: the progress shows here.' });
            }, fail);
          }}
          onCancel={() => setConfirming(false)}
        >
          Send “{post.title}” to {count(status.recipients, audience[0] ?? '', audience[1] ?? '')}{' '}
          now? Each gets it once.
        </ConfirmBox>
      )}
      <p className="button-row">
        <button
          type="button"
          className="button button--outline"
          onClick={() => {
            setMessage(null);
            sendNewsletterTest(post.id, changes).then(
              ({ message: text }) => setMessage({ ok: true, text }),
              fail,
            );
          }}
        >
          Send test
        </button>
        {mayPublish && (
          <button
            type="button"
            className="button button--accent"
            disabled={!live || !status || status.recipients === 0 || status.sending}
            title={live ? undefined : 'Publish the issue first'}
            onClick={() => {
              setMessage(null);
              setConfirming(true);
            }}
          >
            Send
          </button>
        )}
      </p>
      {!live && mayPublish && <p className="desk__small">Publish the issue, then send it.</p>}
    </section>
  );
}
