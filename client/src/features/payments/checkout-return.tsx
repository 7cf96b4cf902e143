import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from '../../lib/router';
import { apiRequest } from '../../lib/api-client';
import { useSession } from '../../lib/session/session-context';
import { waitForMembership } from '../../lib/session/wait-for-membership';
import { useQueryParamOnce } from '../../lib/use-query-param';
import { useSiteName } from '../../lib/site-name';
import type { User } from '../../../../contract/api';

type ReturnState = 'idle' | 'confirming' | 'member' | 'pending' | 'failed' | 'done';

/**
 * Back from Stripe Checkout (`?checkout_session_id=…`): the server asks Stripe itself whether this
 * visitor paid, then the address is cleaned. While the membership has not shown up yet (Stripe is
 * still processing), /api/me is polled for a little while.
 */
export default function CheckoutReturn() {
  const location = useLocation();
  const navigate = useNavigate();
  const { status, setUser, refresh } = useSession();
  const siteName = useSiteName();
  // Read once: the return is a full page load, and the address is cleaned straight after.
  const sessionId = useQueryParamOnce('checkout_session_id');
  const [progress, setState] = useState<ReturnState>('idle');
  const state: ReturnState = progress === 'idle' && sessionId ? 'confirming' : progress;

  useEffect(() => {
    if (!sessionId || status !== 'ready') return;
    const controller = new AbortController();
    const params = new URLSearchParams(location.search);
    params.delete('checkout_session_id');
    const query = params.toString();
    navigate({ pathname: location.pathname, search: query ? `?${query}` : '' }, { replace: true });

    apiRequest<{ user: User }>(`/api/checkout/${encodeURIComponent(sessionId)}`)
      .then(async ({ user }) => {
        if (controller.signal.aborted) return;
        setUser(user);
        const member = user.isSubscribed || (await waitForMembership(refresh, controller.signal));
        if (!controller.signal.aborted) setState(member ? 'member' : 'pending');
      })
      .catch(() => !controller.signal.aborted && setState('failed'));
    return () => controller.abort();
    // Runs once per returned checkout; the address is cleaned right away.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId, status]);

  // The welcome stays long enough to read, then gets out of the way.
  useEffect(() => {
    if (state !== 'member') return;
    const timer = setTimeout(() => setState('done'), 8_000);
    return () => clearTimeout(timer);
  }, [state]);

  if (state === 'idle' || state === 'done') return null;
  const text: Record<Exclude<ReturnState, 'idle' | 'done'>, string> = {
    confirming: 'Confirming your payment with Stripe…',
    member: `Welcome to ${siteName}: your membership is active.`,
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
