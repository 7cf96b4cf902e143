import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { JoinButton } from '../../components/join-button';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session/session-context';
import { formatPrice, useSiteConfig } from '../../lib/site-config';
import './paywall.css';

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
 * "Get Full Access": shown once, `paywallDelayMs` after arrival, to a visitor who is not a member,
 * on a site that takes payments.
 * A native modal dialog: it dims the page, keeps focus inside, and closes on its button or
 * Escape. It never shows to a member and closes the moment a membership becomes active.
 */
export function PaywallModal() {
  const { status, user } = useSession();
  const config = useSiteConfig();
  const { pathname } = useLocation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [due, setDue] = useState(false);
  const [dismissed, setDismissed] = useState(false);

  const isMember = user?.isSubscribed === true;
  const quiet = QUIET_PATHS.some((path) => pathname.startsWith(path));
  const delay = config?.paywallDelayMs;

  useEffect(() => {
    if (status !== 'ready' || delay === undefined || due) return;
    const timer = setTimeout(() => setDue(true), delay);
    return () => clearTimeout(timer);
  }, [status, delay, due]);

  // With payments off its Join could only say so: no modal at all (issue 15).
  const paymentsOn = config?.paymentsEnabled === true;
  const open = due && !dismissed && !isMember && !quiet && paymentsOn;
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="paywall"
      aria-labelledby="paywall-title"
      onClose={() => setDismissed(true)}
      data-testid="paywall"
    >
      <button
        type="button"
        className="paywall__close"
        aria-label="Close"
        onClick={() => dialog.current?.close()}
      >
        ×
      </button>
      <h2 id="paywall-title">Get Full Access</h2>
      <p>
        Join Cohort for {config ? formatPrice(config.priceCents, config.currency) : '$12'} for your
        first year: trusted guides for a better quality of life, discounts from Millennial
        businesses, and the newsletter.
      </p>
      <JoinButton className="button button--accent">Join Now</JoinButton>
      <p className="paywall__perks">
        <Link to={paths.perks} onClick={() => dialog.current?.close()}>
          See the member perks
        </Link>
      </p>
    </dialog>
  );
}
