import { useState } from 'react';
import type { DeskMail } from '../../../../contract/desk-api';
import { fetchMailbox } from './desk-api';
import { formatDateTime } from './desk-format';
import { describeError, useDeskData } from './use-desk-data';

/**
 * /desk/mailbox (owners, while mail goes to the log: no SMTP_URL, never in production): every mail
 * the site would have sent, newest first, and the one chosen as its reader would see it. A mail's
 * HTML is drawn in a sandboxed frame without scripts (`srcdoc`, `sandbox` with no
 * `allow-scripts` or `allow-same-origin`): it can neither run code nor reach the desk.
 */
export function MailboxPage() {
  const [mailbox, reload] = useDeskData('mailbox', (signal) => fetchMailbox(signal));
  const [chosen, setChosen] = useState(0);
  return (
    <section aria-labelledby="mailbox-title">
      <div className="desk__heading">
        <h1 id="mailbox-title">Mailbox</h1>
        <button type="button" className="button button--outline desk__small" onClick={reload}>
          Refresh
        </button>
      </div>
      <p className="desk__lede">
        SMTP_URL is not set, so nothing is mailed: every mail the site would have sent (sign-in
        links, receipts, newsletters and their test copies) is written to the server’s log and kept
        here, the latest 300.
      </p>
      {mailbox.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {mailbox.state === 'error' && <p role="alert">{describeError(mailbox.error)}</p>}
      {mailbox.state === 'ready' &&
        (mailbox.data.mails.length === 0 ? (
          <p className="desk__empty">No mail yet.</p>
        ) : (
          <div className="mailbox">
            <ul className="mailbox__list" aria-label="Mails, newest first">
              {mailbox.data.mails.map((mail, index) => (
                <li key={`${mail.at}-${index}`}>
                  <button
                    type="button"
                    className="mailbox__item"
                    aria-pressed={index === chosen}
                    onClick={() => setChosen(index)}
                  >
                    <span className="mailbox__subject">{mail.subject}</span>
                    <span className="mailbox__meta">
                      {mail.to} · {formatDateTime(mail.at)}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            <MailReader mail={mailbox.data.mails[chosen] ?? mailbox.data.mails[0]} />
          </div>
        ))}
    </section>
  );
}

function MailReader({ mail }: { mail: DeskMail | undefined }) {
  if (!mail) return null;
  return (
    <article className="mailbox__reader" aria-label={`Mail: ${mail.subject}`}>
      <h2>{mail.subject}</h2>
      <dl className="mailbox__headers">
        <dt>To</dt>
        <dd>{mail.to}</dd>
        <dt>At</dt>
        <dd>{formatDateTime(mail.at)}</dd>
      </dl>
      {mail.html !== null ? (
        <>
          <iframe
            className="mailbox__html"
            title={`The HTML of “${mail.subject}”`}
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={mail.html}
          />
          <details className="mailbox__text">
            <summary>Plain text</summary>
            <pre>{mail.text}</pre>
          </details>
        </>
      ) : (
        <pre className="mailbox__text">{mail.text}</pre>
      )}
    </article>
  );
}
