import { useEffect, useState } from 'react';
import { DESK_API } from '../../../../../contract/constants';
import { sameAudience, type NewsletterAudience } from '../../../../../contract/newsletters';
import type { PostJson } from '../../../../../contract/posts';
import { apiRequest } from '../../../lib/api-client';
import { ConfirmBox } from '../confirm-box';
import { AudienceChoice, audienceNouns } from './newsletter-audience';
import { fetchNewsletterStatus, sendNewsletter, type NewsletterStatus } from './post-api';

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Who a test copy is drawn for: a member gets it whole, a subscriber who is not one the opening. */
type TestReader = 'member' | 'subscriber';

/** A test copy to the staff member, with what is in the editor, drawn for `reader`. */
const sendTestCopy = (id: number, changes: Record<string, unknown>, reader: TestReader) =>
  apiRequest<{ message: string }>(`${DESK_API}/posts/${id}/newsletter/test?as=${reader}`, {
    method: 'POST',
    body: changes,
  });

/** Where a send stands: never sent, going out, or done, with its counts. */
function describeProgress({ deliveries, sending }: NewsletterStatus): string {
  const { sent, failed, queued } = deliveries;
  if (sent + failed + queued === 0) return sending ? 'Sending…' : 'Never sent.';
  const counts = `Sent ${sent.toLocaleString('en-US')} · failed ${failed.toLocaleString('en-US')} · waiting ${queued.toLocaleString('en-US')}.`;
  return sending || queued > 0 ? `Sending… ${counts}` : counts;
}

/**
 * Mailing a newsletter issue (or an article, as one) from the desk: a test copy to yourself (with
 * what is in the editor), then, once the issue is published, the issue to the audience chosen
 * (everyone subscribed, free members, paying members or chosen tiers) after a confirmation that
 * says how many, with its progress while it goes out. Each reader gets what the post lets them
 * read: the whole, or the part before its line and a link to upgrade.
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
  const [reader, setReader] = useState<TestReader>('member');
  /** The audience chosen here; null: the one a send takes by itself (the status says which). */
  const [choice, setChoice] = useState<NewsletterAudience | null>(null);
  const audience = choice ?? status?.audience ?? null;
  // Chosen tiers with none ticked is no audience yet: nothing to count or send.
  const complete =
    audience !== null && (audience.audience !== 'tiers' || audience.tiers.length > 0);
  // The counts on show are the audience's once the server has answered for it.
  const counted = status !== null && audience !== null && sameAudience(status.audience, audience);

  // Read once (and for each audience chosen), and every two seconds while a send is under way.
  const going = status !== null && (status.sending || status.deliveries.queued > 0);
  const chosen = choice && JSON.stringify(choice);
  useEffect(() => {
    let stopped = false;
    const asked: NewsletterAudience | undefined = chosen
      ? (JSON.parse(chosen) as NewsletterAudience)
      : undefined;
    if (asked?.audience === 'tiers' && asked.tiers.length === 0) return;
    const read = () =>
      fetchNewsletterStatus(post.id, asked).then(
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
  }, [post.id, post.version, going, chosen]);

  const fail = (error: unknown) =>
    setMessage({ ok: false, text: error instanceof Error ? error.message : 'That did not work.' });

  const live = post.status === 'published';
  // A post not for everyone goes whole to its readers and up to its line to the others.
  const split = post.visibility !== 'public';
  const [one, many] = audience ? audienceNouns(audience, status?.reach) : ['', ''];
  const everyone = audience?.audience === 'all';
  return (
    <section className="post-editor__mail" aria-labelledby="mail-title">
      <h2 id="mail-title">Mail it</h2>
      <p className="desk__small">
        {post.kind === 'article' && 'Mailed to the newsletter’s subscribers as an issue. '}
        {split &&
          'Readers it is for get all of it; the others get it up to the “Members only from here” line, with a link to upgrade.'}
      </p>
      {status && mayPublish && audience && (
        <AudienceChoice audience={audience} reach={status.reach} onChange={setChoice} />
      )}
      {status && (
        <p className="desk__small" role="status">
          {!complete
            ? 'Tick the tiers to send it to.'
            : !counted
              ? 'Counting…'
              : status.recipients > 0
                ? `Goes to ${count(status.recipients, `confirmed ${one} who has`, `confirmed ${many} who have`)} not had it.`
                : status.alreadyQueued > 0
                  ? everyone
                    ? 'Every confirmed subscriber has had it.'
                    : `All the confirmed ${many} have had it.`
                  : `No confirmed ${one} to send it to yet.`}{' '}
          {describeProgress(status)}
          {!status.mailing && ' SMTP_URL is not set: mail goes to the server’s log.'}
        </p>
      )}
      {status && status.figures.delivered > 0 && <IssueFigures status={status} />}
      {message && (
        <p
          className={message.ok ? 'desk__done' : 'form-error'}
          role={message.ok ? undefined : 'alert'}
        >
          {message.text}
        </p>
      )}
      {confirming && status && audience && counted && (
        <ConfirmBox
          confirmLabel="Yes, send"
          onConfirm={() => {
            setConfirming(false);
            sendNewsletter(post.id, status.recipients, audience).then(({ status: next }) => {
              // Its progress, and then that it is done, is the status line above.
              setStatus(next);
            }, fail);
          }}
          onCancel={() => setConfirming(false)}
        >
          Send “{post.title}” to {count(status.recipients, one, many)} now? Each gets it once.
          {split && ' Those it is not for get it up to its line, with a link to upgrade.'}
        </ConfirmBox>
      )}
      {split && (
        <fieldset className="post-editor__test-reader">
          <legend>Send the test as</legend>
          <label>
            <input
              type="radio"
              name="test-reader"
              checked={reader === 'member'}
              onChange={() => setReader('member')}
            />{' '}
            a member (all of it)
          </label>
          <label>
            <input
              type="radio"
              name="test-reader"
              checked={reader === 'subscriber'}
              onChange={() => setReader('subscriber')}
            />{' '}
            a subscriber who is not a member (up to the line)
          </label>
        </fieldset>
      )}
      <p className="button-row">
        <button
          type="button"
          className="button button--outline"
          onClick={() => {
            setMessage(null);
            sendTestCopy(post.id, changes, split ? reader : 'member').then(
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
            disabled={!live || !status || !counted || status.recipients === 0 || status.sending}
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

/**
 * Opens and clicks of a sent issue (docs/newsletter.md#opens-and-clicks). Opens are an estimate:
 * many mail readers load no images until asked, some load every image whether read or not.
 */
function IssueFigures({ status }: { status: NewsletterStatus }) {
  const { delivered, opens, clickers, links } = status.figures;
  const share = (n: number) => (delivered > 0 ? ` (${Math.round((100 * n) / delivered)}%)` : '');
  return (
    <div className="post-editor__mail-figures">
      <h3>Opens and clicks</h3>
      <p className="desk__small">
        Opened by about {count(opens, 'subscriber', 'subscribers')} of{' '}
        {delivered.toLocaleString('en-US')}
        {share(opens)}: an estimate, as many mail readers block the image that counts an open and
        some load it unread. Links followed by {count(clickers, 'subscriber', 'subscribers')}
        {share(clickers)}.
        {!status.tracking && ' Tracking is off (NEWSLETTER_TRACKING=off): nothing new is counted.'}
      </p>
      {links.length > 0 && (
        <ul className="post-editor__mail-links" aria-label="Links followed">
          {links.map((link) => (
            <li key={link.url}>
              <span className="post-editor__mail-link">{link.url}</span>{' '}
              <span className="desk__small">
                {count(link.unique, 'subscriber', 'subscribers')},{' '}
                {count(link.total, 'click', 'clicks')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
