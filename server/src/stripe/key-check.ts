/**
 * What can be told about the Stripe keys without asking Stripe: each has the shape Stripe gives
 * it, and the secret and publishable keys belong to the same mode (test or live). A mix makes
 * every payment fail in a way the visitor sees first.
 */

export interface StripeKeys {
  STRIPE_SECRET_KEY: string;
  STRIPE_PUBLISHABLE_KEY: string;
  STRIPE_WEBHOOK_SECRET: string;
  STRIPE_PRICE_ID?: string | undefined;
}

export type StripeMode = 'test' | 'live';

/** The keys of a parsed configuration, named by their variables (what the checks report). */
export function keysOf(stripe: {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  priceId?: string | undefined;
}): StripeKeys {
  return {
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_PRICE_ID: stripe.priceId,
  };
}

/** `sk_` secret keys and `rk_` restricted keys, each in test or live mode. */
const SECRET_KEY = /^(?:sk|rk)_(test|live)_\w+$/;
const PUBLISHABLE_KEY = /^pk_(test|live)_\w+$/;
const WEBHOOK_SECRET = /^whsec_[\w+/=]+$/;
const PRICE_ID = /^price_\w+$/;

export function modeOfKey(key: string): StripeMode | null {
  const mode = (SECRET_KEY.exec(key) ?? PUBLISHABLE_KEY.exec(key))?.[1];
  return mode === 'test' || mode === 'live' ? mode : null;
}

/** Each problem starts with the variable to change. Empty when the keys agree. */
export function stripeKeyProblems(keys: StripeKeys): string[] {
  const problems: string[] = [];
  const secretMode = modeOfKey(keys.STRIPE_SECRET_KEY);
  const publishableMode = modeOfKey(keys.STRIPE_PUBLISHABLE_KEY);
  if (!SECRET_KEY.test(keys.STRIPE_SECRET_KEY)) {
    problems.push(
      'STRIPE_SECRET_KEY: is not a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_…); copy it from Dashboard → Developers → API keys',
    );
  }
  if (!PUBLISHABLE_KEY.test(keys.STRIPE_PUBLISHABLE_KEY)) {
    problems.push(
      'STRIPE_PUBLISHABLE_KEY: is not a Stripe publishable key (pk_test_… or pk_live_…); copy it from Dashboard → Developers → API keys',
    );
  }
  if (secretMode && publishableMode && secretMode !== publishableMode) {
    problems.push(
      `STRIPE_PUBLISHABLE_KEY: is a ${publishableMode} key but STRIPE_SECRET_KEY is a ${secretMode} key; use both keys of the same mode`,
    );
  }
  if (!WEBHOOK_SECRET.test(keys.STRIPE_WEBHOOK_SECRET)) {
    problems.push(
      'STRIPE_WEBHOOK_SECRET: is not a webhook signing secret (whsec_…); copy it from the endpoint’s page under Dashboard → Developers → Webhooks',
    );
  }
  if (keys.STRIPE_PRICE_ID !== undefined && !PRICE_ID.test(keys.STRIPE_PRICE_ID)) {
    problems.push(
      'STRIPE_PRICE_ID: is not a Price id (price_…); copy it from the product’s page in the Dashboard, or leave it empty',
    );
  }
  return problems;
}
