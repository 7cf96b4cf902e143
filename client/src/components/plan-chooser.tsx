import { useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Link, useLocation } from '../lib/router';
import { paths } from '../config/paths';
import { useSiteName } from '../lib/site-name';
import { formatMoney, perYearLabel, type SubscriptionPlanId } from '../../../contract/plan-rules';
import type { Plan } from '../../../contract/plans-api';
import './dialog.css';
import './plan-chooser.css';

/**
 * "Choose your membership": the plans on sale, each a button to its Checkout (a new tab), the
 * monthly one also priced by the year, and the year paid once as a link to its form on the
 * early-access page. A native modal dialog (focus kept inside, Escape closes it), put at the end
 * of the page so it takes none of the styles of the bar its button is in.
 */
/** A plan's free trial, as the chooser says it (the server gives it to readers with an account). */
const trialNote = (plan: Plan) =>
  plan.trialDays > 0
    ? ` Starts with ${plan.trialDays} days free, once, for readers with an account.`
    : '';

/** A subscription's button to its Checkout: join-button.tsx passes its own (JoinButton). */
export type PlanButton = ComponentType<{
  className: string;
  plan: SubscriptionPlanId;
  offer?: string;
  children: ReactNode;
}>;

export default function PlanChooser({
  plans,
  offer,
  onClose,
  PlanButton,
}: {
  plans: readonly Plan[];
  /** A code the page was opened with (an offer's link). */
  offer?: string;
  onClose: () => void;
  PlanButton: PlanButton;
}) {
  const [code, setCode] = useState(offer ?? '');
  const redeemed = code.trim() || undefined;
  const siteName = useSiteName();
  const dialog = useRef<HTMLDialogElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  const monthly = plans.find((plan) => plan.id === 'monthly');
  const yearly = plans.find((plan) => plan.id === 'yearly');
  const once = plans.find((plan) => plan.id === 'early-access');
  // What a year paid yearly saves over twelve months paid monthly, when it does.
  const saving =
    monthly && yearly && monthly.currency === yearly.currency
      ? monthly.amountCents * 12 - yearly.amountCents
      : 0;

  return createPortal(
    <dialog
      ref={dialog}
      className="dialog plan-chooser"
      aria-labelledby="plan-chooser-title"
      onClose={(event) => event.target === event.currentTarget && onClose()}
    >
      <button
        type="button"
        className="dialog-close"
        aria-label="Close"
        onClick={() => dialog.current?.close()}
      >
        ×
      </button>
      <h2 id="plan-chooser-title">Join {siteName}</h2>
      <p className="plan-chooser__lede">
        Choose how you pay. Every plan gives the same membership.
      </p>
      <ul className="plan-chooser__plans">
        {monthly && (
          <SubscriptionChoice
            id="monthly"
            plan={monthly}
            offer={redeemed}
            PlanButton={PlanButton}
            note={`${perYearLabel(monthly)}. Cancel any time.`}
          >
            Monthly: {formatMoney(monthly.amountCents, monthly.currency)} a month
          </SubscriptionChoice>
        )}
        {yearly && (
          <SubscriptionChoice
            id="yearly"
            plan={yearly}
            offer={redeemed}
            PlanButton={PlanButton}
            note={
              saving > 0
                ? `Saves ${formatMoney(saving, yearly.currency)} on paying monthly. Cancel any time.`
                : 'Renews each year. Cancel any time.'
            }
          >
            Yearly: {formatMoney(yearly.amountCents, yearly.currency)} a year
          </SubscriptionChoice>
        )}
        {once && (
          <li className="plan-chooser__plan">
            {redeemed && redeemed !== offer ? (
              // A code typed here: the early-access page prices the year with it when it loads.
              <a
                className="button plan-chooser__button"
                href={`${paths.earlyAccess}?offer=${encodeURIComponent(redeemed)}#payment`}
              >
                Once: {formatMoney(once.amountCents, once.currency)} for one year
              </a>
            ) : pathname === paths.earlyAccess ? (
              <a
                className="button plan-chooser__button"
                href="#payment"
                onClick={() => dialog.current?.close()}
              >
                Once: {formatMoney(once.amountCents, once.currency)} for one year
              </a>
            ) : (
              <Link
                className="button plan-chooser__button"
                to={`${paths.earlyAccess}${redeemed ? `?offer=${encodeURIComponent(redeemed)}` : ''}#payment`}
                onClick={() => dialog.current?.close()}
              >
                Once: {formatMoney(once.amountCents, once.currency)} for one year
              </Link>
            )}
            <span className="plan-chooser__note">Paid by card here, no renewal.</span>
          </li>
        )}
      </ul>
      <label className="plan-chooser__code">
        <span>Have a code?</span>
        <input
          value={code}
          maxLength={40}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setCode(event.target.value)}
        />
      </label>
    </dialog>,
    document.body,
  );
}

/** A subscription on sale: its button to Checkout, then what it costs in time and its trial. */
function SubscriptionChoice({
  id,
  plan,
  offer,
  PlanButton,
  note,
  children,
}: {
  id: SubscriptionPlanId;
  plan: Plan;
  offer: string | undefined;
  PlanButton: PlanButton;
  note: string;
  children: ReactNode;
}) {
  return (
    <li className="plan-chooser__plan">
      <PlanButton
        className="button button--accent plan-chooser__button"
        plan={id}
        {...(offer && { offer })}
      >
        {children}
      </PlanButton>
      <span className="plan-chooser__note">
        {note}
        {trialNote(plan)}
      </span>
    </li>
  );
}
