import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from '../lib/router';
import { ApiError } from '../lib/api-client';
import { useSiteConfig } from '../lib/site-config';
import { PAYMENTS_OFF_MESSAGE } from '../lib/payment-messages';
import { openCheckout } from '../lib/open-checkout';
import './join-button.css';

/**
 * Join / Join Now: opens Stripe Checkout for the yearly membership in a new tab (members go to the
 * billing portal). Says so plainly when payments are off or the server cannot start a checkout:
 * under the button in the page's flow, or, with `problemAs="popover"`, in a bubble anchored below
 * it that takes no room, for a button in a bar whose height must not change (the navbar).
 */
export function JoinButton({
  className,
  children,
  problemAs = 'inline',
}: {
  className?: string;
  children: ReactNode;
  problemAs?: 'inline' | 'popover';
}) {
  const config = useSiteConfig();
  const { key: locationKey } = useLocation();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ message: string; on: string } | null>(null);

  // A message belongs to the page it was shown on: the navbar outlives pages, its message does not.
  const shownProblem = problem?.on === locationKey ? problem.message : null;

  useEffect(() => {
    if (problemAs !== 'popover' || !shownProblem) return;
    const dismissOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setProblem(null);
    };
    window.addEventListener('keydown', dismissOnEscape);
    return () => window.removeEventListener('keydown', dismissOnEscape);
  }, [problemAs, shownProblem]);

  async function join() {
    if (config && !config.paymentsEnabled) {
      setProblem({ message: PAYMENTS_OFF_MESSAGE, on: locationKey });
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await openCheckout();
    } catch (error) {
      setProblem({
        message:
          error instanceof ApiError
            ? error.message
            : 'Could not reach the server. Please try again.',
        on: locationKey,
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className={`join-button join-button--${problemAs}`}>
      <button type="button" className={className} onClick={() => void join()} aria-busy={busy}>
        {children}
        <span className="visually-hidden"> (opens checkout in a new tab)</span>
      </button>
      {shownProblem && (
        <span className="join-button__problem" role="alert">
          {shownProblem}
          {problemAs === 'popover' && (
            <button
              type="button"
              className="join-button__dismiss"
              aria-label="Dismiss"
              onClick={() => setProblem(null)}
            >
              ×
            </button>
          )}
        </span>
      )}
    </span>
  );
}
