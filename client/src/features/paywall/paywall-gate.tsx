import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from '../../lib/router';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session/session-context';
import { useSiteConfig } from '../../lib/site-config';

// The dialog's code loads when it is due, not with every first visit (most readers never see it).
const PaywallModal = lazy(() => import('./paywall-modal'));

/** Pages that are already about joining, the perks or the visitor's account: no modal over them. */
const QUIET_PATHS = [
  paths.earlyAccess,
  paths.register,
  paths.login,
  paths.account,
  paths.resetPassword,
  paths.perks,
];

/**
 * When the paywall shows: once, `paywallDelayMs` after the session is ready, to a visitor who is
 * not a member, on a site that takes payments, outside the quiet pages, unless a dialog is open
 * then. Closing it (or becoming a member) removes it for the rest of the visit.
 */
export function PaywallGate() {
  const { status, user } = useSession();
  const config = useSiteConfig();
  const { pathname } = useLocation();
  const [due, setDue] = useState(false);
  const [dismissed, setDismissed] = useState(false);

  const delay = config?.paywallDelayMs;
  useEffect(() => {
    if (status !== 'ready' || delay === undefined || due) return;
    const timer = setTimeout(() => {
      // A visitor in another dialog (choosing a plan after Join, most often) already has what the
      // paywall would offer: it never opens over it, and counts as shown.
      if (document.querySelector('dialog[open]')) setDismissed(true);
      setDue(true);
    }, delay);
    return () => clearTimeout(timer);
  }, [status, delay, due]);

  const isMember = user?.isSubscribed === true;
  const quiet = QUIET_PATHS.some((path) => pathname.startsWith(path));
  // With payments off its Join could only say so: no modal at all.
  const paymentsOn = config?.paymentsEnabled === true;
  if (!due || dismissed || isMember || quiet || !paymentsOn) return null;
  return (
    <Suspense fallback={null}>
      <PaywallModal onClose={() => setDismissed(true)} />
    </Suspense>
  );
}
