import { useEffect, useState } from 'react';
import { PageMasthead } from '../../components/page-masthead';
import { describeFailure } from '../../lib/api-client';
import { useDocumentHead } from '../../lib/document-head';
import { resubscribe, unsubscribe } from './newsletter-api';
import { useTokenFromAddress } from '../../lib/use-token-from-address';
import './newsletter.css';

type State =
  | { step: 'working' }
  | { step: 'unsubscribed'; message: string }
  | { step: 'resubscribed'; message: string }
  | { step: 'failed'; message: string };

/** /newsletter/unsubscribe#token=… (the footer of every issue): unsubscribes, offers the way back. */
export default function UnsubscribePage() {
  useDocumentHead('Unsubscribe', 'Leave the newsletter.');
  const token = useTokenFromAddress();
  const [state, setState] = useState<State>(
    token
      ? { step: 'working' }
      : { step: 'failed', message: 'This page needs the unsubscribe link from a newsletter.' },
  );

  useEffect(() => {
    if (!token) return;
    unsubscribe(token).then(
      ({ message }) => setState({ step: 'unsubscribed', message }),
      (error: unknown) => setState({ step: 'failed', message: describeFailure(error) }),
    );
  }, [token]);

  async function comeBack() {
    if (!token) return;
    try {
      setState({ step: 'resubscribed', message: (await resubscribe(token)).message });
    } catch (error) {
      setState({ step: 'failed', message: describeFailure(error) });
    }
  }

  return (
    <>
      <PageMasthead eyebrow="Newsletter" title="Unsubscribe" />
      <section className="page-body newsletter-screen">
        {state.step === 'working' && <p role="status">Unsubscribing…</p>}
        {state.step === 'unsubscribed' && (
          <>
            <p role="status">{state.message}</p>
            <p>Changed your mind?</p>
            <button
              type="button"
              className="button button--outline"
              onClick={() => void comeBack()}
            >
              Subscribe again
            </button>
          </>
        )}
        {state.step === 'resubscribed' && <p role="status">{state.message}</p>}
        {state.step === 'failed' && (
          <p role="alert" className="form-error">
            {state.message}
          </p>
        )}
      </section>
    </>
  );
}
