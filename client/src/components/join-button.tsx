import { useState, type ReactNode } from 'react';
import { ApiError } from '../lib/api-client';
import { useSiteConfig } from '../lib/site-config';
import { PAYMENTS_OFF_MESSAGE } from '../lib/payment-messages';
import { openCheckout } from '../lib/open-checkout';
import './join-button.css';

/**
 * Join / Join Now: opens Stripe Checkout for the yearly membership in a new tab (members go to the
 * billing portal). Says so plainly when payments are off or the server cannot start a checkout.
 */
export function JoinButton({ className, children }: { className?: string; children: ReactNode }) {
  const config = useSiteConfig();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function join() {
    if (config && !config.paymentsEnabled) {
      setProblem(PAYMENTS_OFF_MESSAGE);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await openCheckout();
    } catch (error) {
      setProblem(
        error instanceof ApiError ? error.message : 'Could not reach the server. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="join-button">
      <button type="button" className={className} onClick={() => void join()} aria-busy={busy}>
        {children}
        <span className="visually-hidden"> (opens checkout in a new tab)</span>
      </button>
      {problem && (
        <span className="join-button__problem" role="alert">
          {problem}
        </span>
      )}
    </span>
  );
}
