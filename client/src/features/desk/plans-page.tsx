import { useState, type FormEvent } from 'react';
import type { DeskStaff } from '../../../../contract/desk-api';
import {
  formatMoney,
  MAX_PLAN_CENTS,
  MAX_TRIAL_DAYS,
  MIN_PLAN_CENTS,
  perYearLabel,
} from '../../../../contract/plan-rules';
import type { DeskPlan, DeskTierPlans } from '../../../../contract/plans-api';
import { Link } from '../../lib/router';
import { changePlan, fetchPlans, moveSubscribers } from './desk-api';
import { DeskTable } from './desk-table';
import { OutcomeNote, type Outcome } from './outcome';
import plansCss from './plans-page.css?inline';
import { describeError, useDeskData } from './use-desk-data';
import { CheckField } from './check-field';

const NAMES: Record<DeskPlan['id'], { title: string; about: string }> = {
  'early-access': {
    title: 'One year, paid once',
    about: 'Paid by card on the early-access page; no renewal.',
  },
  monthly: {
    title: 'Monthly',
    about: 'A subscription through Stripe Checkout, billed each month.',
  },
  yearly: { title: 'Yearly', about: 'A subscription through Stripe Checkout, billed each year.' },
};

/**
 * /desk/plans: what the site sells. Each tier's prices, side by side (changed with the tier, on the
 * Tiers page); the first tier's plans below, as before tiers: owners turn each on or off and set
 * its price from now on; members who subscribed at another price keep theirs. Editors see it all,
 * change nothing.
 */
export function PlansPage({ staff }: { staff: DeskStaff }) {
  const [plans, reload] = useDeskData('plans', (signal) => fetchPlans(signal));
  const mayChange = staff.role === 'owner';
  const tiers = plans.state === 'ready' ? plans.data.tiers : [];
  const first = tiers.find((tier) => tier.first);
  return (
    <section aria-labelledby="plans-title">
      <style>{plansCss}</style>
      <h1 id="plans-title">Plans</h1>
      <p className="desk__lede">
        What readers can buy. A new price applies to new members: those who subscribed before keep
        the price they signed up at.
      </p>
      {plans.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {plans.state === 'error' && <p role="alert">{describeError(plans.error)}</p>}
      {plans.state === 'ready' && plans.data.paymentsOff && (
        <p className="desk-plans__off" role="status">
          {plans.data.paymentsOff}
        </p>
      )}
      {tiers.length > 1 && <TierPrices tiers={tiers} />}
      {plans.state === 'ready' && tiers.length > 1 && first && (
        <>
          <h2 className="desk-plans__heading">{first.name}’s plans</h2>
          <p className="desk-plan__about">
            The first tier: what members joined before there were tiers.
          </p>
        </>
      )}
      {plans.state === 'ready' && (
        <ul className="desk-topics" role="list">
          {plans.data.plans.map((plan) => (
            <li key={`${plan.id}-${plan.updatedAt}`}>
              <PlanRow
                plan={plan}
                paymentsOn={plans.data.paymentsOff === null}
                mayChange={mayChange}
                onSaved={reload}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const PLAN_COLUMNS = [
  ['early-access', 'A year, paid once'],
  ['monthly', 'Monthly'],
  ['yearly', 'Yearly'],
] as const;

/** Each tier's price for each plan, and how many members hold it. */
function TierPrices({ tiers }: { tiers: DeskTierPlans[] }) {
  return (
    <section className="desk-plans__tiers" aria-labelledby="plans-tiers-title">
      <h2 id="plans-tiers-title" className="desk-plans__heading">
        Each tier’s prices
      </h2>
      <DeskTable
        caption="Each tier’s prices"
        captionHidden
        columns={['Tier', ...PLAN_COLUMNS.map(([, title]) => title)]}
        cards
      >
        {tiers.map((tier) => (
          <tr key={tier.slug}>
            <th scope="row">
              {tier.name}
              {!tier.visible && <span className="desk-plan__about"> (hidden)</span>}
            </th>
            {PLAN_COLUMNS.map(([id, title]) => {
              const plan = tier.plans.find((each) => each.id === id);
              return (
                <td key={id} data-label={title}>
                  {plan?.enabled ? formatMoney(plan.amountCents, plan.currency) : 'not sold'}
                  {plan && plan.members > 0 && (
                    <span className="desk-plan__about">
                      {' '}
                      · {plan.members === 1 ? '1 member' : `${plan.members} members`}
                    </span>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </DeskTable>
      <p className="desk-plan__about">
        A tier’s prices, its trial and its words change on the <Link to="/desk/tiers">Tiers</Link>{' '}
        page.
      </p>
    </section>
  );
}

function PlanRow({
  plan,
  paymentsOn,
  mayChange,
  onSaved,
}: {
  plan: DeskPlan;
  /** Without Stripe's keys nothing is sold: a plan turned on goes on sale once they are set. */
  paymentsOn: boolean;
  mayChange: boolean;
  onSaved: () => void;
}) {
  const [price, setPrice] = useState((plan.amountCents / 100).toFixed(2));
  const [enabled, setEnabled] = useState(plan.enabled);
  const [trialDays, setTrialDays] = useState(String(plan.trialDays));
  const [trialNeedsCard, setTrialNeedsCard] = useState(plan.trialNeedsCard);
  const subscription = plan.kind === 'subscription';
  const trial = Number(trialDays);
  const trialValid = /^\d{1,2}$/.test(trialDays.trim()) && trial <= MAX_TRIAL_DAYS;
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const name = NAMES[plan.id];
  const fieldId = `plan-${plan.id}`;
  const cents = Math.round(Number(price) * 100);
  const priceValid =
    /^\d+(\.\d{1,2})?$/.test(price.trim()) && cents >= MIN_PLAN_CENTS && cents <= MAX_PLAN_CENTS;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!priceValid) {
      setOutcome({
        ok: false,
        text: `A price is between ${formatMoney(MIN_PLAN_CENTS, plan.currency)} and ${formatMoney(MAX_PLAN_CENTS, plan.currency)}, in ${plan.currency.toUpperCase()}.`,
      });
      return;
    }
    if (subscription && !trialValid) {
      setOutcome({
        ok: false,
        text: `A free trial is 0 (none) to ${MAX_TRIAL_DAYS} days.`,
      });
      return;
    }
    const change = {
      ...(enabled !== plan.enabled && { enabled }),
      ...(cents !== plan.amountCents && { amountCents: cents }),
      ...(subscription && trial !== plan.trialDays && { trialDays: trial }),
      ...(subscription && trialNeedsCard !== plan.trialNeedsCard && { trialNeedsCard }),
    };
    if (Object.keys(change).length === 0) {
      setOutcome({ ok: true, text: 'Nothing to change.' });
      return;
    }
    setSaving(true);
    setOutcome(null);
    try {
      await changePlan(plan.id, change);
      onSaved();
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
      setSaving(false);
    }
  }

  return (
    <form className="desk-topic" onSubmit={save} aria-labelledby={`${fieldId}-name`}>
      <h2 id={`${fieldId}-name`} className="desk-topic__name">
        {name.title}{' '}
        <span className="desk__small">
          {!plan.enabled ? 'not on sale' : paymentsOn ? 'on sale' : 'not on sale: payments are off'}{' '}
          · {plan.members === 1 ? '1 member' : `${plan.members} members`}
        </span>
      </h2>
      <p className="desk-plan__about">
        {name.about} Now {formatMoney(plan.amountCents, plan.currency)}
        {plan.interval === 'month' && ` a month (${perYearLabel(plan)})`}
        {plan.interval === 'year' && ' a year'}.
        {plan.trialDays > 0 &&
          ` Starts with a ${plan.trialDays}-day free trial${plan.trialNeedsCard ? ' (card up front)' : ' (no card needed)'}, once per reader with an account.`}
      </p>
      <div className="desk-plan__fields">
        <label className="desk-field">
          <span>Price ({plan.currency.toUpperCase()})</span>
          <input
            inputMode="decimal"
            value={price}
            readOnly={!mayChange}
            aria-invalid={!priceValid}
            onChange={(event) => setPrice(event.target.value)}
          />
        </label>
        {subscription && (
          <label className="desk-field">
            <span>Free trial (days)</span>
            <input
              inputMode="numeric"
              value={trialDays}
              readOnly={!mayChange}
              aria-invalid={!trialValid}
              onChange={(event) => setTrialDays(event.target.value)}
            />
          </label>
        )}
        {subscription && trial > 0 && (
          <CheckField
            className="desk-plan__toggle"
            checked={trialNeedsCard}
            readOnly={!mayChange}
            onChange={setTrialNeedsCard}
          >
            Card up front
          </CheckField>
        )}
        <CheckField
          className="desk-plan__toggle"
          checked={enabled}
          readOnly={!mayChange}
          onChange={setEnabled}
        >
          {paymentsOn ? 'On sale' : 'On sale once payments are on'}
        </CheckField>
        {mayChange && (
          <button className="button" type="submit" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        )}
      </div>
      <OutcomeNote outcome={outcome} />
      {(plan.id === 'monthly' || plan.id === 'yearly') && plan.membersOnOtherPrices > 0 && (
        <MoveSubscribers
          id={plan.id}
          count={plan.membersOnOtherPrices}
          price={formatMoney(plan.amountCents, plan.currency)}
          mayChange={mayChange}
          onMoved={(text) => {
            setOutcome({ ok: true, text });
            onSaved();
          }}
        />
      )}
    </form>
  );
}

/**
 * The members who subscribed at another price: they keep it until an owner moves them, each told
 * by mail first and charged the new price from their renewal.
 */
function MoveSubscribers({
  id,
  count,
  price,
  mayChange,
  onMoved,
}: {
  id: 'monthly' | 'yearly';
  count: number;
  price: string;
  mayChange: boolean;
  /** What was done, for the plan's own line (this one goes once nobody is left to move). */
  onMoved: (text: string) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const members = count === 1 ? '1 member pays' : `${count} members pay`;

  async function move() {
    setBusy(true);
    setOutcome(null);
    try {
      const result = await moveSubscribers(id);
      const left = [
        result.renewsSoon > 0 && `${result.renewsSoon} renew within 7 days (move them after)`,
        result.noAddress > 0 && `${result.noAddress} have no address to tell (kept)`,
        result.notTold > 0 && `${result.notTold} could not be mailed (kept; try again)`,
      ].filter(Boolean);
      setConfirming(false);
      onMoved(
        `Told and moved: ${result.moved}.${left.length > 0 ? ` Not moved: ${left.join('; ')}.` : ''}`,
      );
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="desk-plan__move">
      <p className="desk-plan__about">
        {members} the price they subscribed at, not {price}.
      </p>
      {mayChange &&
        (confirming ? (
          <p className="desk-topic__actions">
            <span className="desk-plan__about">
              Each gets a mail now, and pays {price} from their next renewal (those renewing within
              7 days are left for later).
            </span>
            <button type="button" className="button" disabled={busy} onClick={() => void move()}>
              {busy ? 'Moving…' : `Tell and move them`}
            </button>
            <button
              type="button"
              className="button button--outline"
              onClick={() => setConfirming(false)}
            >
              Not now
            </button>
          </p>
        ) : (
          <p>
            <button
              type="button"
              className="button button--outline"
              onClick={() => setConfirming(true)}
            >
              Move them to {price}…
            </button>
          </p>
        ))}
      <OutcomeNote outcome={outcome} />
    </div>
  );
}
