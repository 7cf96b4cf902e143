import { useId, useState, type FormEvent } from 'react';
import { Link } from '../../lib/router';
import { paths } from '../../config/paths';
import { useMessageRequest } from '../../lib/use-request';
import { useSiteSettings } from '../../lib/site-settings';
import { DEFAULT_SIGNUP_TEXT } from '../../../../contract/site-settings';
import { subscribe } from './newsletter-api';
import './newsletter.css';

/**
 * The newsletter's sign-up: one email field, under the publisher's words (settings `signupText`,
 * else DEFAULT_SIGNUP_TEXT). Everyone gets the same answer (check your inbox), except a signed-in
 * reader giving their own account's address, who is subscribed at once.
 */
export function NewsletterSignup({
  heading = 'Get the newsletter',
  showArchiveLink = true,
}: {
  heading?: string;
  /** Links the archive (not on the archive itself). */
  showArchiveLink?: boolean;
}) {
  const id = useId();
  const words = useSiteSettings().signupText.trim() || DEFAULT_SIGNUP_TEXT;
  const [email, setEmail] = useState('');
  const { done, problem, busy: sending, send } = useMessageRequest();

  async function submit(event: FormEvent) {
    event.preventDefault();
    await send(() => subscribe(email));
  }

  return (
    <section className="newsletter-signup" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{heading}</h2>
      <p className="newsletter-signup__lede">
        {words}
        {showArchiveLink && (
          <>
            {' '}
            <Link to={paths.newsletter}>Read past issues</Link>.
          </>
        )}
      </p>
      {done ? (
        <p role="status" className="newsletter-signup__done">
          {done}
        </p>
      ) : (
        <form className="newsletter-signup__form" onSubmit={(event) => void submit(event)}>
          <label htmlFor={`${id}-email`}>Email</label>
          <input
            id={`${id}-email`}
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <button type="submit" className="button button--accent" disabled={sending}>
            {sending ? 'Subscribing…' : 'Subscribe'}
          </button>
          {problem && (
            <p role="alert" className="form-error">
              {problem}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
