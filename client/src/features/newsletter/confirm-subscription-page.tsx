import { useState } from 'react';
import { PageMasthead } from '../../components/page-masthead';
import { ApiError } from '../../lib/api-client';
import { useDocumentHead } from '../../lib/document-head';
import { confirmSubscription } from './newsletter-api';
import { useTokenFromAddress } from './token-from-address';
import './newsletter.css';

/**
 * /newsletter/confirm#token=… (the link in the confirmation mail). Opening it confirms nothing:
 * mail scanners follow links. Only the button does (a POST).
 */
export default function ConfirmSubscriptionPage() {
  useDocumentHead('Confirm your subscription', 'Confirm your subscription to the newsletter.');
  const token = useTokenFromAddress();
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function confirm() {
    if (!token) return;
    setSubmitting(true);
    setProblem(null);
    try {
      setDone((await confirmSubscription(token)).message);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : 'Could not reach the server.');
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <>
      <PageMasthead eyebrow="Newsletter" title="Confirm your subscription" />
      <section className="page-body newsletter-screen">
        {done ? (
          <p role="status">{done}</p>
        ) : token ? (
          <>
            <p>Press the button to start getting the newsletter at this address.</p>
            {problem && (
              <p role="alert" className="form-error">
                {problem}
              </p>
            )}
            <button
              type="button"
              className="button button--accent"
              disabled={submitting}
              onClick={() => void confirm()}
            >
              {submitting ? 'Confirming…' : 'Confirm my subscription'}
            </button>
          </>
        ) : (
          <p>This page needs the link from the confirmation mail. Sign up again for a new one.</p>
        )}
      </section>
    </>
  );
}
