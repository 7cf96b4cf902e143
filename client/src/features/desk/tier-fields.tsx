import { useId } from 'react';
import {
  formatMoney,
  MAX_PLAN_CENTS,
  MAX_TRIAL_DAYS,
  MIN_PLAN_CENTS,
} from '../../../../contract/plan-rules';
import {
  MAX_TIER_BENEFITS,
  MAX_TIER_DESCRIPTION,
  MAX_TIER_NAME,
  MAX_TIER_SLUG,
  type TierPrices,
} from '../../../../contract/tiers';

// The fields of a tier's form on the Tiers page (tiers-page.tsx): the same for a new tier and for
// one there is, read into the body the server takes (contract/tiers.ts), or the first thing wrong.

const PRICE_LABELS: Record<keyof TierPrices, string> = {
  monthly: 'Monthly',
  yearly: 'Yearly',
  once: 'A year, paid once',
};
const PRICE_KEYS = Object.keys(PRICE_LABELS) as (keyof TierPrices)[];

/** What the owner typed, as text: a price left empty is a plan not sold. */
export interface TierDraft {
  name: string;
  slug: string;
  description: string;
  /** One benefit a line. */
  benefits: string;
  prices: Record<keyof TierPrices, string>;
  trialDays: string;
  visible: boolean;
}

export interface TierValues {
  name: string;
  slug: string;
  description: string;
  benefits: string[];
  prices: TierPrices;
  trialDays: number;
  visible: boolean;
}

const priceText = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2));

export const draftOf = (tier: TierValues): TierDraft => ({
  name: tier.name,
  slug: tier.slug,
  description: tier.description,
  benefits: tier.benefits.join('\n'),
  prices: {
    monthly: priceText(tier.prices.monthly),
    yearly: priceText(tier.prices.yearly),
    once: priceText(tier.prices.once),
  },
  trialDays: String(tier.trialDays),
  visible: tier.visible,
});

export const EMPTY_DRAFT: TierDraft = {
  name: '',
  slug: '',
  description: '',
  benefits: '',
  prices: { monthly: '', yearly: '', once: '' },
  trialDays: '0',
  visible: true,
};

/** The draft as the server takes it, or what is wrong with it (the server says it too). */
export function readDraft(
  draft: TierDraft,
  currency: string,
): { ok: true; values: TierValues } | { ok: false; problem: string } {
  const prices = { monthly: null, yearly: null, once: null } as TierPrices;
  for (const key of PRICE_KEYS) {
    const text = draft.prices[key].trim();
    if (text === '') continue;
    const cents = Math.round(Number(text) * 100);
    if (!/^\d+(\.\d{1,2})?$/.test(text) || cents < MIN_PLAN_CENTS || cents > MAX_PLAN_CENTS) {
      return {
        ok: false,
        problem: `${PRICE_LABELS[key]}: a price is between ${formatMoney(MIN_PLAN_CENTS, currency)} and ${formatMoney(MAX_PLAN_CENTS, currency)}, in ${currency.toUpperCase()}; leave it empty when that plan is not sold.`,
      };
    }
    prices[key] = cents;
  }
  if (PRICE_KEYS.every((key) => prices[key] === null)) {
    return { ok: false, problem: 'A tier sells at least one plan: give it a price.' };
  }
  const trialDays = Number(draft.trialDays.trim());
  if (!/^\d{1,2}$/.test(draft.trialDays.trim()) || trialDays > MAX_TRIAL_DAYS) {
    return { ok: false, problem: `A free trial is 0 (none) to ${MAX_TRIAL_DAYS} days.` };
  }
  const benefits = draft.benefits
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (benefits.length > MAX_TIER_BENEFITS) {
    return { ok: false, problem: `A tier lists at most ${MAX_TIER_BENEFITS} benefits.` };
  }
  return {
    ok: true,
    values: {
      name: draft.name.trim(),
      slug: draft.slug.trim(),
      description: draft.description.trim(),
      benefits,
      prices,
      trialDays,
      visible: draft.visible,
    },
  };
}

/** "$5 a month · $50 a year · $40 once", or "nothing on sale". */
export function pricesLabel(prices: TierPrices, currency: string): string {
  const parts = [
    prices.monthly !== null && `${formatMoney(prices.monthly, currency)} a month`,
    prices.yearly !== null && `${formatMoney(prices.yearly, currency)} a year`,
    prices.once !== null && `${formatMoney(prices.once, currency)} for a year paid once`,
  ].filter((part) => typeof part === 'string');
  return parts.length > 0 ? parts.join(' · ') : 'nothing on sale';
}

/** A tier's form's fields; `slugHint` is what a new tier's slug is when left empty. */
export function TierFields({
  draft,
  onChange,
  currency,
  readOnly,
  slugHint,
}: {
  draft: TierDraft;
  onChange: (draft: TierDraft) => void;
  currency: string;
  readOnly: boolean;
  slugHint?: string;
}) {
  const id = useId();
  const set = <K extends keyof TierDraft>(key: K, value: TierDraft[K]) =>
    onChange({ ...draft, [key]: value });
  return (
    <>
      <div className="desk-tiers__row">
        <label className="desk-field">
          <span>Name</span>
          <input
            value={draft.name}
            maxLength={MAX_TIER_NAME}
            readOnly={readOnly}
            required
            onChange={(event) => set('name', event.target.value)}
          />
        </label>
        <label className="desk-field">
          <span>Slug</span>
          <input
            value={draft.slug}
            maxLength={MAX_TIER_SLUG}
            readOnly={readOnly}
            placeholder={slugHint}
            aria-describedby={`${id}-slug`}
            onChange={(event) => set('slug', event.target.value)}
          />
        </label>
      </div>
      <p id={`${id}-slug`} className="desk-plan__about">
        What posts and links name it by: lower-case words joined by hyphens
        {slugHint !== undefined && ', made from the name when left empty'}.
      </p>
      <label className="desk-field">
        <span>Description</span>
        <textarea
          value={draft.description}
          maxLength={MAX_TIER_DESCRIPTION}
          readOnly={readOnly}
          rows={2}
          onChange={(event) => set('description', event.target.value)}
        />
      </label>
      <label className="desk-field">
        <span>Benefits (one a line)</span>
        <textarea
          value={draft.benefits}
          readOnly={readOnly}
          rows={3}
          onChange={(event) => set('benefits', event.target.value)}
        />
      </label>
      <fieldset className="desk-tiers__prices" disabled={readOnly}>
        <legend>Prices ({currency.toUpperCase()}; empty: that plan is not sold)</legend>
        {PRICE_KEYS.map((key) => (
          <label key={key} className="desk-field">
            <span>{PRICE_LABELS[key]}</span>
            <input
              inputMode="decimal"
              value={draft.prices[key]}
              onChange={(event) => set('prices', { ...draft.prices, [key]: event.target.value })}
            />
          </label>
        ))}
        <label className="desk-field">
          <span>Free trial (days)</span>
          <input
            inputMode="numeric"
            value={draft.trialDays}
            aria-describedby={`${id}-trial`}
            onChange={(event) => set('trialDays', event.target.value)}
          />
        </label>
      </fieldset>
      <p id={`${id}-trial`} className="desk-plan__about">
        A free trial starts the monthly and yearly plans, once per reader with an account.
      </p>
      <label className="desk-plan__toggle">
        <input
          type="checkbox"
          checked={draft.visible}
          disabled={readOnly}
          onChange={(event) => set('visible', event.target.checked)}
        />{' '}
        Offered to readers
      </label>
    </>
  );
}
