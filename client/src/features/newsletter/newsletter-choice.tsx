import { useEffect, useState } from 'react';
import type { NewsletterSubscription } from '../../../../contract/newsletters';
import { describeFailure } from '../../lib/api-client';
import { getSubscription, setSubscription } from './newsletter-api';
import './newsletter.css';

/** /account's newsletter section: whether the account's address gets it, and a switch. */
export default function NewsletterChoice() {
  const [choice, setChoice] = useState<NewsletterSubscription | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    getSubscription().then(setChoice, (error: unknown) => setProblem(describeFailure(error)));
  }, []);

  async function change(subscribed: boolean) {
    setSaving(true);
    setProblem(null);
    try {
      setChoice(await setSubscription(subscribed));
    } catch (error) {
      setProblem(describeFailure(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="panel newsletter-choice" aria-labelledby="newsletter-choice-title">
      <h2 id="newsletter-choice-title">Newsletter</h2>
      {choice && (
        <>
          <p role="status">
            {choice.subscribed
              ? `You get the newsletter at ${choice.email}.`
              : choice.pending
                ? `A confirmation link went to ${choice.email}: press its button, or subscribe here.`
                : `You do not get the newsletter.`}
          </p>
          <button
            type="button"
            className={choice.subscribed ? 'button button--outline' : 'button button--accent'}
            disabled={saving}
            onClick={() => void change(!choice.subscribed)}
          >
            {choice.subscribed ? 'Unsubscribe' : 'Subscribe'}
          </button>
        </>
      )}
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
    </section>
  );
}
