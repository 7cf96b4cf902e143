import { useEffect, useRef } from 'react';
import { Link } from '../../lib/router';
import { JoinButton } from '../../components/join-button';
import { paths } from '../../config/paths';
import { formatPrice, useSiteConfig } from '../../lib/site-config';
import { useSiteName } from '../../lib/site-name';
import '../../components/dialog.css';
import './paywall.css';

/**
 * "Get Full Access": shown once, `paywallDelayMs` after arrival, to a visitor who is not a member,
 * on a site that takes payments.
 * A native modal dialog: it dims the page, keeps focus inside, and closes on its button or
 * Escape. It never shows to a member and closes the moment a membership becomes active.
 * `PaywallGate` (paywall-gate.tsx) decides when; this module loads only then.
 */
export default function PaywallModal({ onClose }: { onClose: () => void }) {
  const config = useSiteConfig();
  const siteName = useSiteName();
  const dialog = useRef<HTMLDialogElement>(null);
  const monthly = config?.plans.find((plan) => plan.id === 'monthly');
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  return (
    <dialog
      ref={dialog}
      className="dialog paywall"
      aria-labelledby="paywall-title"
      // Only its own closing: React passes a dialog opened from inside it (the plans) up here too.
      onClose={(event) => event.target === event.currentTarget && onClose()}
      data-testid="paywall"
    >
      <button
        type="button"
        className="dialog-close"
        aria-label="Close"
        onClick={() => dialog.current?.close()}
      >
        ×
      </button>
      <h2 id="paywall-title">Get Full Access</h2>
      <p>
        Join {siteName} for {config ? formatPrice(config.priceCents, config.currency) : '$12'} for
        your first year: every post, member perks and the newsletter.
      </p>
      <JoinButton className="button button--accent">Join Now</JoinButton>
      {monthly && (
        <p className="paywall__plans">
          Or {formatPrice(monthly.amountCents, monthly.currency)} a month: you choose next.
        </p>
      )}
      <p className="paywall__perks">
        <Link to={paths.perks} onClick={() => dialog.current?.close()}>
          See the member perks
        </Link>
        <span aria-hidden="true"> · </span>
        <Link to={`${paths.payItForward}#ask`} onClick={() => dialog.current?.close()}>
          Can’t pay? Ask for a free seat
        </Link>
      </p>
    </dialog>
  );
}
