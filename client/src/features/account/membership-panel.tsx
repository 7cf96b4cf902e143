import { useEffect, useState } from 'react';
import { Link } from '../../lib/router';
import { paths } from '../../config/paths';
import { COMP_LABEL, PaymentHistory, subscriptionPlanWord, usePayments } from './payment-history';
import { TierMoves, useAccountTier } from './tier-moves';
import { describeFailure } from '../../lib/api-client';
import { formatDate } from '../../lib/format-date';
import { JoinButton } from '../../components/join-button';
import { useSession } from '../../lib/session/session-context';
import { useSiteConfig } from '../../lib/site-config';
import { plansOfTier } from '../../lib/tier-plans';
import type { User } from '../../../../contract/api';
import type { MySeats } from '../../../../contract/seats';
import { formatMoney, planPriceLabel } from '../../../../contract/plan-rules';
import { listMySeats, openBillingPortal, switchPlan } from './account-api';

/**
 * /account's membership: its state, perks and billing, monthly ↔ yearly, the member's tier and the
 * tiers to move to (tier-moves.tsx), their payments and the seats they funded.
 */
export function MembershipPanel({ user }: { user: User }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const payments = usePayments(version);
  const standing = useAccountTier(version);
  const changed = () => setVersion((v) => v + 1);
  const planWord = subscriptionPlanWord(payments.payments);
  const membership = user.membership;
  // Time the desk gave is not a purchase: say so, and the day the desk entered as its last.
  const comp = payments.runningComp;
  // The tier, named where the site sells more than one.
  const config = useSiteConfig();
  const tiered = (config?.tiers.length ?? 0) > 1 || Boolean(standing?.renewsAs);
  const tierName = tiered && standing?.tier ? `: ${standing.tier.name} ` : ' ';
  async function manageBilling() {
    try {
      window.location.assign((await openBillingPortal()).url);
    } catch (error) {
      setProblem(describeFailure(error));
    }
  }
  return (
    <div className="panel" aria-labelledby="membership-title">
      <h2 id="membership-title">Membership</h2>
      {user.isSubscribed && membership ? (
        <>
          <p className="membership-status membership-status--active">
            {membership.status === 'past_due'
              ? `Your renewal payment did not go through: your membership continues until ${formatDate(membership.lastDay)}. Update your card in billing to keep it.`
              : comp
                ? `${COMP_LABEL}, ends on ${formatDate(membership.lastDay)}`
                : membership.status === 'trialing'
                  ? `Free trial, until ${formatDate(membership.lastDay)}: Manage billing to add a card or cancel`
                  : membership.plan === 'subscription'
                    ? `Active member${tierName}(${planWord ?? 'subscription'}, renews on ${formatDate(membership.expiresAt)})`
                    : `Active member${tierName}(one year, ends on ${formatDate(membership.lastDay)})`}
          </p>
          <p className="button-row">
            <Link className="button button--accent" to={paths.perks}>
              Your member perks
            </Link>
            {membership.plan === 'subscription' && (
              <button type="button" className="button" onClick={() => void manageBilling()}>
                Manage billing
              </button>
            )}
          </p>
          {problem && (
            <p role="alert" className="form-error">
              {problem}
            </p>
          )}
          {membership.plan === 'subscription' &&
            membership.status === 'active' &&
            !comp &&
            !standing?.renewsAs &&
            (planWord === 'monthly' || planWord === 'yearly') && (
              <SwitchPlan current={planWord} tier={standing?.tier?.slug} onSwitched={changed} />
            )}
          {standing && tiered && <TierMoves standing={standing} onMoved={changed} />}
        </>
      ) : (
        <>
          <p className="membership-status">{endedMessage(membership)}</p>
          <JoinButton className="button button--accent">Join for your first year</JoinButton>
        </>
      )}
      <PaymentHistory {...payments} />
      <FundedSeats />
    </div>
  );
}

/** The solidarity seats the member paid for, and how many readers hold one. */
function FundedSeats() {
  const [fundings, setFundings] = useState<MySeats['fundings']>([]);
  useEffect(() => {
    const controller = new AbortController();
    listMySeats(controller.signal).then(
      (answer) => setFundings(answer.fundings),
      () => undefined, // the account works without it
    );
    return () => controller.abort();
  }, []);
  if (fundings.length === 0) return null;
  const seats = fundings.reduce((sum, funding) => sum + funding.seats, 0);
  const granted = fundings.reduce((sum, funding) => sum + funding.granted, 0);
  const takenBack = fundings.some((f) => f.state === 'refunded' || f.state === 'revoked');
  return (
    <div className="payments" aria-labelledby="seats-title">
      <h3 id="seats-title">Seats you funded</h3>
      <p>
        {granted} of your {seats} {seats === 1 ? 'seat is' : 'seats are'} in use: {granted}{' '}
        {granted === 1 ? 'reader has' : 'readers have'} a year thanks to you.
        {takenBack &&
          ' Seats of a refunded payment that were not yet given are no longer in the pool.'}
      </p>
    </div>
  );
}

/** Why there is no access: in the member's words, not Stripe's. */
function endedMessage(membership: User['membership']): string {
  if (!membership) return 'You are not a member yet.';
  switch (membership.status) {
    case 'refunded':
      return 'Your payment was refunded, so your membership has ended.';
    case 'disputed':
      return 'Your payment is disputed with your bank: your membership is on hold until that is settled.';
    case 'revoked':
      return 'Your payment was reversed, so your membership has ended.';
    default:
      return `Your membership ended on ${formatDate(membership.lastDay)}.`;
  }
}

/**
 * Monthly ↔ yearly, from the account page: says what Stripe will do before it is done (a new
 * period from today; the old one's unused time credited), then does it.
 */
function SwitchPlan({
  current,
  tier,
  onSwitched,
}: {
  current: 'monthly' | 'yearly';
  /** The member's tier (its slug): the other plan is priced at its price. */
  tier: string | undefined;
  onSwitched: () => void;
}) {
  const config = useSiteConfig();
  const { refresh } = useSession();
  const target = current === 'monthly' ? 'yearly' : 'monthly';
  const ofTier = config?.tiers.find((each) => each.slug === tier);
  const plan = ofTier
    ? plansOfTier(ofTier, config ?? { plans: [] }).find((each) => each.id === target)
    : config?.plans.find((each) => each.id === target);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  if (!plan) return null;
  const price = formatMoney(plan.amountCents, plan.currency);

  async function confirm() {
    setBusy(true);
    setOutcome(null);
    try {
      await switchPlan(target);
      setOutcome({ ok: true, text: `You are on the ${target} plan now.` });
      setConfirming(false);
      onSwitched();
      void refresh();
    } catch (error) {
      setOutcome({
        ok: false,
        text: describeFailure(error),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="switch-plan">
      {confirming ? (
        <>
          <p>
            {target === 'yearly'
              ? `Switch to the yearly plan? Your card is charged ${price} today, less what is left of this month, and your year starts today.`
              : `Switch to the monthly plan (${price} a month)? What is left of your year becomes credit that pays the coming months: nothing is charged until it runs out.`}
          </p>
          <p className="button-row">
            <button
              type="button"
              className="button button--accent"
              disabled={busy}
              onClick={() => void confirm()}
            >
              {busy ? 'Switching…' : `Switch to ${target}`}
            </button>
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              Keep {current}
            </button>
          </p>
        </>
      ) : (
        <p>
          <button
            type="button"
            className="button button--outline"
            onClick={() => setConfirming(true)}
          >
            Switch to the {target} plan ({planPriceLabel(plan)})
          </button>
        </p>
      )}
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? '' : 'form-error'}>
          {outcome.text}
        </p>
      )}
    </div>
  );
}
