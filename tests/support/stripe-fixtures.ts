import { readFileSync } from 'node:fs';

/**
 * Stripe's own example object for every API resource, as Stripe publishes them in its OpenAPI
 * repository (`stripe/fixtures3.json` beside this file; its source, version and licence are in the
 * README there). The fake Stripe starts every object it makes from one of these, so what the app
 * reads has every field Stripe sends.
 */

export type StripeObject = Record<string, unknown> & { id: string; object: string };

const fixturesPath = new URL('./stripe/fixtures3.json', import.meta.url);
let resources: Record<string, StripeObject> | undefined;

/** A fresh deep copy of Stripe's fixture for `resource` (`payment_intent`, `invoice`...). */
export function fixture(resource: string): StripeObject {
  resources ??= (
    JSON.parse(readFileSync(fixturesPath, 'utf8')) as {
      resources: Record<string, StripeObject>;
    }
  ).resources;
  const found = resources[resource];
  if (!found) throw new Error(`Stripe publishes no fixture for "${resource}"`);
  return structuredClone(found);
}
