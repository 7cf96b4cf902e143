import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { apiRequest } from '../../lib/api-client';
import { useSession } from '../../lib/session/session-context';
import type { User } from '../../lib/session/user';

const POLL_EVERY_MS = 2_000;
const POLL_FOR_MS = 30_000;

type ReturnState = 'idle' | 'confirming' | 'member' | 'pending' | 'failed';

/**
 * Back from Stripe Checkout (`?checkout_session_id=…`): the server asks Stripe itself whether this
 * visitor paid, then the address is cleaned. While the membership has not shown up yet (Stripe is
 * still processing), /api/me is polled for a little while.
 */
export function CheckoutReturn() {
  const location = useLocation();
  const navigate = useNavigate();
  const { status, setUser, refresh } = useSession();
  // Read once: the return is a full page load, and the address is cleaned straight after.
  const [sessionId] = useState(() =>
    new URLSearchParams(window.location.search).get('checkout_session_id'),
  );
  const [state, setState] = useState<ReturnState>(sessionId ? 'confirming' : 'idle');

  useEffect(() => {
    if (!sessionId || status !== 'ready') return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const params = new URLSearchParams(location.search);
    params.delete('checkout_session_id');
    const query = params.toString();
    navigate({ pathname: location.pathname, search: query ? `?${query}` : '' }, { replace: true });

    const startedAt = Date.now();
    const settle = (user: User | null) => {
      if (cancelled) return;
      if (user?.isSubscribed) {
        setState('member');
      } else if (Date.now() - startedAt < POLL_FOR_MS) {
        timer = setTimeout(() => void refresh().then(settle), POLL_EVERY_MS);
      } else {
        setState('pending');
      }
    };
    apiRequest<{ user: User }>(`/api/checkout/${encodeURIComponent(sessionId)}`)
      .then(({ user }) => {
        if (cancelled) return;
        setUser(user);
        settle(user);
      })
      .catch(() => !cancelled && setState('failed'));
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
    // Runs once per returned checkout; the address is cleaned right away.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId, status]);

  // The welcome stays long enough to read, then gets out of the way.
  useEffect(() => {
    if (state !== 'member') return;
    const timer = setTimeout(() => setState('idle'), 8_000);
    return () => clearTimeout(timer);
  }, [state]);

  if (state === 'idle') return null;
  const text: Record<Exclude<ReturnState, 'idle'>, string> = {
    confirming: 'Confirming your payment with Stripe…',
    member: 'Welcome to Cohort: your membership is active.',
    pending:
      'Stripe has not confirmed your payment yet. It can take a few minutes; this page will show your membership once it has.',
    failed:
      'We could not confirm this checkout. If you were charged, your membership appears shortly.',
  };
  return (
    <div className={`notice notice--${state}`} role="status">
      {text[state]}
    </div>
  );
}
