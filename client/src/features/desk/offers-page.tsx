import { useState, type FormEvent } from 'react';
import type { DeskStaff } from '../../../../contract/desk-api';
import type { DeskOffer, OfferBody } from '../../../../contract/offers';
import { offerLabel } from '../../../../contract/offer-label';
import { formatMoney } from '../../../../contract/plan-rules';
import type { DeskTier } from '../../../../contract/tiers';
import { createOffer, endOffer, fetchOffers } from './desk-api';
import { formatShortDate } from './desk-format';
import { DeskTable } from './desk-table';
import { OutcomeNote, type Outcome } from './outcome';
import { TierSelect } from './tier-select';
import { fetchTiers } from './tiers-api';
import { describeError, useDeskData } from './use-desk-data';

const PLAN_NAMES = { 'early-access': 'Year paid once', monthly: 'Monthly', yearly: 'Yearly' };
type PlanKey = keyof typeof PLAN_NAMES;

/**
 * /desk/offers: codes (and their links) that take a percent or an amount off chosen plans of one
 * tier. Owners make and end them; everyone at the desk sees each one's redemptions and what it
 * brought.
 */
export function OffersPage({ staff }: { staff: DeskStaff }) {
  const [offers, reload] = useDeskData('offers', (signal) => fetchOffers(signal));
  const [tiers] = useDeskData('offer-tiers', (signal) => fetchTiers(signal));
  const tierList = tiers.state === 'ready' ? tiers.data.tiers : [];
  // With one tier, the tier goes without saying.
  const several = tierList.length > 1;
  const mayChange = staff.role === 'owner';
  return (
    <section aria-labelledby="offers-title">
      <h1 id="offers-title">Offers</h1>
      <p className="desk__lede">
        A code, and a link that fills it in, taking something off chosen plans
        {several ? ' of one tier' : ''}. Subscriptions redeem it through Stripe; the year paid once
        is priced by the site.
      </p>
      {mayChange && <NewOffer tiers={tierList} onMade={reload} />}
      {offers.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {offers.state === 'error' && <p role="alert">{describeError(offers.error)}</p>}
      {offers.state === 'ready' &&
        (offers.data.offers.length === 0 ? (
          <p>No offer yet.</p>
        ) : (
          <DeskTable
            caption="Every offer, newest first"
            columns={['Code', 'Takes off', 'Plans', 'Used', 'Brought', 'State']}
            actions
          >
            {offers.data.offers.map((offer) => (
              <OfferRow
                key={offer.id}
                offer={offer}
                showTier={several}
                mayChange={mayChange}
                onEnded={reload}
              />
            ))}
          </DeskTable>
        ))}
    </section>
  );
}

function OfferRow({
  offer,
  showTier,
  mayChange,
  onEnded,
}: {
  offer: DeskOffer;
  /** Whether to name its tier (the site sells several). */
  showTier: boolean;
  mayChange: boolean;
  onEnded: () => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const state =
    offer.state === 'active' && offer.endsAt
      ? `active until ${formatShortDate(offer.endsAt)}`
      : offer.state;
  return (
    <tr>
      <th scope="row">
        {offer.code}
        <br />
        <a className="desk__small" href={offer.link}>
          {offer.link}
        </a>
      </th>
      <td>{offerLabel(offer)}</td>
      <td>
        {offer.plans.map((plan) => PLAN_NAMES[plan as PlanKey] ?? plan).join(', ')}
        {showTier && <span className="desk__note">of {offer.tierName}</span>}
      </td>
      <td>
        {offer.redemptions}
        {offer.maxRedemptions !== null && ` of ${offer.maxRedemptions}`}
        {offer.held > 0 && ` (${offer.held} being paid)`}
      </td>
      <td>{formatMoney(offer.revenueCents, offer.currency)}</td>
      <td>{state}</td>
      <td>
        {mayChange && offer.state === 'active' && (
          <button
            type="button"
            className="button button--outline"
            onClick={() => {
              setProblem(null);
              endOffer(offer.id).then(onEnded, (error: unknown) =>
                setProblem(describeError(error)),
              );
            }}
          >
            End {offer.code}
          </button>
        )}
        {problem && <span role="alert">{problem}</span>}
      </td>
    </tr>
  );
}

/**
 * The form of a new offer. With several tiers it asks which tier's plans it is for (the default
 * tier's, the first visible, unless changed); every tier is offered, hidden ones too.
 */
function NewOffer({ tiers, onMade }: { tiers: readonly DeskTier[]; onMade: () => void }) {
  const [chosenTier, setTier] = useState('');
  const tier = chosenTier || (tiers.find((each) => each.visible) ?? tiers[0])?.slug || '';
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<'percent' | 'amount'>('percent');
  const [value, setValue] = useState('20');
  const [duration, setDuration] = useState<OfferBody['duration']>('once');
  const [months, setMonths] = useState('3');
  const [plans, setPlans] = useState<PlanKey[]>(['early-access', 'monthly', 'yearly']);
  const [endsOn, setEndsOn] = useState('');
  const [limit, setLimit] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const number = Number(value);
    const body: OfferBody = {
      code: code.trim(),
      ...(kind === 'percent'
        ? { percentOff: Math.round(number) }
        : { amountOffCents: Math.round(number * 100) }),
      duration,
      ...(duration === 'repeating' && { durationMonths: Number(months) }),
      plans,
      ...(tiers.length > 1 && tier && { tier }),
      ...(endsOn && { endsAt: new Date(`${endsOn}T23:59:59Z`).toISOString() }),
      ...(limit.trim() && { maxRedemptions: Number(limit) }),
    };
    setBusy(true);
    setOutcome(null);
    try {
      const { offer } = await createOffer(body);
      setOutcome({
        ok: true,
        text: `Made ${offer.code}${tiers.length > 1 ? ` for ${offer.tierName}` : ''}: share ${offer.link}`,
      });
      setCode('');
      onMade();
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="desk-topic desk-offer" onSubmit={submit} aria-labelledby="new-offer-title">
      <h2 id="new-offer-title" className="desk-topic__name">
        New offer
      </h2>
      <div className="desk-plan__fields">
        <TierSelect tiers={tiers} value={tier} onChange={setTier} />
        <label className="desk-field">
          <span>Code</span>
          <input
            value={code}
            required
            pattern="[A-Za-z0-9_\-]{3,40}"
            title="3 to 40 letters, digits, - or _"
            onChange={(event) => setCode(event.target.value)}
          />
        </label>
        <label className="desk-field">
          <span>Takes off</span>
          <select
            value={kind}
            onChange={(event) => setKind(event.target.value as 'percent' | 'amount')}
          >
            <option value="percent">a percent</option>
            <option value="amount">an amount</option>
          </select>
        </label>
        <label className="desk-field">
          <span>{kind === 'percent' ? 'Percent' : 'Amount'}</span>
          <input
            inputMode="decimal"
            value={value}
            required
            onChange={(event) => setValue(event.target.value)}
          />
        </label>
        <label className="desk-field">
          <span>For</span>
          <select
            value={duration}
            onChange={(event) => setDuration(event.target.value as OfferBody['duration'])}
          >
            <option value="once">the first payment</option>
            <option value="repeating">some months</option>
            <option value="forever">every payment</option>
          </select>
        </label>
        {duration === 'repeating' && (
          <label className="desk-field">
            <span>Months</span>
            <input
              inputMode="numeric"
              value={months}
              onChange={(event) => setMonths(event.target.value)}
            />
          </label>
        )}
      </div>
      <fieldset className="desk-offer__plans">
        <legend>On</legend>
        {(Object.keys(PLAN_NAMES) as PlanKey[]).map((plan) => (
          <label key={plan} className="desk-plan__toggle">
            <input
              type="checkbox"
              checked={plans.includes(plan)}
              onChange={(event) =>
                setPlans((current) =>
                  event.target.checked
                    ? [...current, plan]
                    : current.filter((each) => each !== plan),
                )
              }
            />{' '}
            {PLAN_NAMES[plan]}
          </label>
        ))}
      </fieldset>
      <div className="desk-plan__fields">
        <label className="desk-field">
          <span>Last day (optional)</span>
          <input type="date" value={endsOn} onChange={(event) => setEndsOn(event.target.value)} />
        </label>
        <label className="desk-field">
          <span>At most (optional)</span>
          <input
            inputMode="numeric"
            value={limit}
            placeholder="redemptions"
            onChange={(event) => setLimit(event.target.value)}
          />
        </label>
        <button className="button" type="submit" disabled={busy}>
          {busy ? 'Making…' : 'Make the offer'}
        </button>
      </div>
      <OutcomeNote outcome={outcome} />
    </form>
  );
}
