import { useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Link, useLocation } from '../lib/router';
import { paths } from '../config/paths';
import { useSiteName } from '../lib/site-name';
import { earlyAccessPath, tierPriceLine } from '../lib/tier-plans';
import { formatMoney, perYearLabel, type SubscriptionPlanId } from '../../../contract/plan-rules';
import type { Plan } from '../../../contract/plans-api';
import type { PublicTier } from '../../../contract/tiers';
import './dialog.css';
import './plan-chooser.css';

/**
 * "Join": with several tiers, each tier first (its name, description, benefits and prices), each
 * a button to its plans; then the chosen tier's plans on sale, each a button to its Checkout (a
 * new tab), the monthly one also priced by the year, and the year paid once as a link to its form
 * on the early-access page. A native modal dialog (focus kept inside, Escape closes it), put at the
 * end of the page so it takes none of the styles of the bar its button is in.
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
  tier?: string;
  offer?: string;
  children: ReactNode;
}>;

/** What the dialog offers (join-button.tsx works it out from the site's configuration). */
export interface Choices {
  /**
   * The tiers to choose among first (two or more), or the one tier the plans are of; none: the
   * site's plans, as before tiers (no tier named to the server).
   */
  tiers: readonly PublicTier[];
  /** A tier's plans on sale (null: the site's own). */
  plansOf: (tier: PublicTier | null) => Plan[];
}

export default function PlanChooser({
  choices,
  offer,
  onClose,
  PlanButton,
}: {
  choices: Choices;
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
  const several = choices.tiers.length > 1;
  const [tier, setTier] = useState<PublicTier | null>(several ? null : (choices.tiers[0] ?? null));
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  // A step taken: the reader's place is the new step's heading.
  const choose = (next: PublicTier | null) => {
    setTier(next);
    requestAnimationFrame(() => heading.current?.focus());
  };
  const close = (
    <button
      type="button"
      className="dialog-close"
      aria-label="Close"
      onClick={() => dialog.current?.close()}
    >
      ×
    </button>
  );
  const codeField = (
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
  );

  if (several && tier === null) {
    return createPortal(
      <dialog
        ref={dialog}
        className="dialog plan-chooser plan-chooser--tiers"
        aria-labelledby="plan-chooser-title"
        onClose={(event) => event.target === event.currentTarget && onClose()}
      >
        {close}
        <h2 id="plan-chooser-title" ref={heading} tabIndex={-1}>
          Join {siteName}
        </h2>
        <p className="plan-chooser__lede">Choose your membership, then how you pay.</p>
        <ul className="plan-chooser__tiers">
          {choices.tiers.map((each) => (
            <li key={each.slug} className="plan-chooser__tier">
              <h3>{each.name}</h3>
              {each.description && <p className="plan-chooser__about">{each.description}</p>}
              {each.benefits.length > 0 && (
                <ul className="plan-chooser__benefits">
                  {each.benefits.map((benefit) => (
                    <li key={benefit}>{benefit}</li>
                  ))}
                </ul>
              )}
              <p className="plan-chooser__prices">{tierPriceLine(each, formatMoney)}</p>
              <button
                type="button"
                className="button button--accent plan-chooser__button"
                onClick={() => choose(each)}
              >
                Choose {each.name}
              </button>
            </li>
          ))}
        </ul>
        {codeField}
      </dialog>,
      document.body,
    );
  }

  const plans = choices.plansOf(tier);
  const ofTier = tier?.slug;
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
      {close}
      {several && (
        <button type="button" className="plan-chooser__back" onClick={() => choose(null)}>
          ← All memberships
        </button>
      )}
      <h2 id="plan-chooser-title" ref={heading} tabIndex={-1}>
        {tier ? `${tier.name}` : `Join ${siteName}`}
      </h2>
      <p className="plan-chooser__lede">
        {tier
          ? `Join ${siteName} as ${tier.name}: choose how you pay. Every plan gives the same membership.`
          : 'Choose how you pay. Every plan gives the same membership.'}
      </p>
      <ul className="plan-chooser__plans">
        {monthly && (
          <SubscriptionChoice
            id="monthly"
            plan={monthly}
            tier={ofTier}
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
            tier={ofTier}
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
            {(redeemed && redeemed !== offer) || (ofTier && pathname === paths.earlyAccess) ? (
              // A code typed here, or another tier: the early-access page reads them as it loads.
              <a className="button plan-chooser__button" href={earlyAccessPath(ofTier, redeemed)}>
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
                to={earlyAccessPath(ofTier, redeemed)}
                onClick={() => dialog.current?.close()}
              >
                Once: {formatMoney(once.amountCents, once.currency)} for one year
              </Link>
            )}
            <span className="plan-chooser__note">Paid by card here, no renewal.</span>
          </li>
        )}
      </ul>
      {codeField}
    </dialog>,
    document.body,
  );
}

/** A subscription on sale: its button to Checkout, then what it costs in time and its trial. */
function SubscriptionChoice({
  id,
  plan,
  tier,
  offer,
  PlanButton,
  note,
  children,
}: {
  id: SubscriptionPlanId;
  plan: Plan;
  /** The tier's slug, when one was chosen. */
  tier: string | undefined;
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
        {...(tier && { tier })}
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
