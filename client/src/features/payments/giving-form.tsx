import { Elements } from '@stripe/react-stripe-js';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { SiteConfig } from '../../../../contract/api';
import type { PublicTier } from '../../../../contract/tiers';
import { EmailField } from '../../components/form-field';
import { describeFailure } from '../../lib/api-client';
import { formatPrice } from '../../lib/site-config';
import { PaymentForm } from './payment-form';
import { getStripe } from './stripe-loader';

/*
 * What the two giving pages share, /gift and /pay-it-forward: the tier given and a year's price,
 * how a form is sent, the payer's address for the receipt, a note with its count, the row that
 * sends the form, and the payment step.
 */

/** "$12": a year paid once, what a gift or a seat costs, before the site config has arrived too. */
export function yearPrice(config: SiteConfig | null): string {
  const year = config?.plans.find((plan) => plan.id === 'early-access');
  return formatPrice(year?.amountCents ?? config?.priceCents ?? 1200, config?.currency ?? 'usd');
}

/** A tier a gift or a seat can be a year of: a visible one that sells a year paid once. */
export type GivenTier = PublicTier & { prices: { once: number } };

const sellsAYear = (tier: PublicTier): tier is GivenTier => tier.prices.once !== null;

/**
 * The tier a giving form gives a year of: a choice among the tiers that sell a year paid once
 * when there are several (`tier` is the chosen one, `tiers` the choices), else none to make (the
 * server gives the default tier's year, at `yearPrice`).
 */
export function useGivenTier(config: SiteConfig | null) {
  const tiers = (config?.tiers ?? []).filter(sellsAYear);
  const [slug, setSlug] = useState<string | null>(null);
  if (tiers.length < 2) return { tiers: [], tier: null, price: yearPrice(config), choose: setSlug };
  const tier = tiers.find((each) => each.slug === slug) ?? tiers[0] ?? null;
  const price = tier ? formatPrice(tier.prices.once, tier.currency) : yearPrice(config);
  return { tiers, tier, price, choose: setSlug };
}

/** The choice of the tier a gift or a seat is a year of: each with its year's price and words. */
export function TierChoice({
  legend,
  tiers,
  value,
  onChange,
}: {
  legend: string;
  tiers: readonly GivenTier[];
  value: string | undefined;
  onChange(slug: string): void;
}) {
  if (tiers.length < 2) return null;
  return (
    <fieldset className="giving-tiers">
      <legend>{legend}</legend>
      {tiers.map((tier) => (
        <label key={tier.slug} className="giving-tiers__tier">
          <input
            type="radio"
            name="tier"
            value={tier.slug}
            checked={tier.slug === value}
            onChange={() => onChange(tier.slug)}
          />
          <span className="giving-tiers__name">
            {tier.name}
            <span className="giving-tiers__price">
              {formatPrice(tier.prices.once, tier.currency)} a year
            </span>
          </span>
          {tier.description && <span className="giving-tiers__about">{tier.description}</span>}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Sending a giving form: `validate` answers a problem for each field it finds wrong, and the form
 * goes nowhere while there is one; then `send`. A failure to send is said above the button.
 */
export function useGivingSubmit<Field extends string>(
  validate: () => Partial<Record<Field, string>>,
  send: () => Promise<void>,
) {
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    setProblem(null);
    try {
      await send();
    } catch (error) {
      setProblem(describeFailure(error));
    } finally {
      setBusy(false);
    }
  }
  return { errors, problem, busy, onSubmit: (event: FormEvent) => void submit(event) };
}

/** The payer's address for the receipt: asked of a visitor, said back to a signed-in reader. */
export function ReceiptEmail({
  signedInEmail,
  signedInNote = '.',
  hint,
  value,
  onChange,
  error,
}: {
  signedInEmail: string | null | undefined;
  /** What follows "Your receipt goes to name@example.com" for a signed-in reader. */
  signedInNote?: string;
  hint: string;
  value: string;
  onChange(value: string): void;
  error: string | undefined;
}) {
  if (signedInEmail) {
    return (
      <p className="field__hint">
        Your receipt goes to {signedInEmail}
        {signedInNote}
      </p>
    );
  }
  return (
    <EmailField label="Your email" value={value} onChange={onChange} error={error} hint={hint} />
  );
}

/**
 * A form that pays for years given (a gift, seats): the tier they are of, then what the page asks
 * (`children`), the payer's address for the receipt, and the row that sends it.
 */
export function GivingForm({
  legend,
  given,
  submit,
  receipt,
  children,
}: {
  legend: string;
  given: ReturnType<typeof useGivenTier>;
  submit: { problem: string | null; busy: boolean; onSubmit(event: FormEvent): void };
  receipt: Parameters<typeof ReceiptEmail>[0];
  children: ReactNode;
}) {
  return (
    <form className="gift__form" noValidate onSubmit={submit.onSubmit}>
      <TierChoice
        legend={legend}
        tiers={given.tiers}
        value={given.tier?.slug}
        onChange={given.choose}
      />
      {children}
      <ReceiptEmail {...receipt} />
      <SubmitRow problem={submit.problem} busy={submit.busy} />
    </form>
  );
}

/** A few sentences in the payer's own words, with how many characters are left to them. */
export function NoteField({
  id,
  label,
  value,
  onChange,
  minLength,
  maxLength,
}: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  minLength?: number;
  maxLength: number;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={4}
        minLength={minLength}
        maxLength={maxLength}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-count`}
      />
      <p id={`${id}-count`} className="field__hint">
        {value.length} / {maxLength}
      </p>
    </div>
  );
}

/** Why the form was not sent, then its button (most go on to the payment), saying when it is sent. */
export function SubmitRow({
  problem,
  busy,
  label = 'Continue to payment',
  busyLabel = 'One moment…',
}: {
  problem: string | null;
  busy: boolean;
  label?: string;
  busyLabel?: string;
}) {
  return (
    <>
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
      <button className="button button--accent" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </>
  );
}

/**
 * The payment: what is being paid for, with a way back to change it, then Stripe's form, which
 * comes back to `returnPath` once paid.
 */
export function PaymentStep({
  config,
  clientSecret,
  returnPath,
  onChange,
  children,
}: {
  config: SiteConfig;
  clientSecret: string;
  returnPath: string;
  onChange(): void;
  children: ReactNode;
}) {
  return (
    <div className="panel">
      <p>
        {children}{' '}
        <button type="button" className="link-button" onClick={onChange}>
          Change
        </button>
      </p>
      <Elements
        stripe={getStripe(config.stripePublishableKey ?? '')}
        options={{ clientSecret, appearance: { theme: 'stripe' } }}
      >
        <PaymentForm returnUrl={`${config.siteUrl}${returnPath}`} />
      </Elements>
    </div>
  );
}
