import type { StripeMode } from '../stripe/key-check.js';

/**
 * Links into the Stripe Dashboard for the ids Cohort keeps, in the mode of the configured keys
 * (test-mode objects live under /test). Null for an id of a kind the Dashboard has no page for.
 */
const DASHBOARD_PAGES: [prefix: string, page: string][] = [
  ['cus_', 'customers'],
  ['sub_', 'subscriptions'],
  ['in_', 'invoices'],
  ['pi_', 'payments'],
  ['ch_', 'payments'],
  ['evt_', 'events'],
];

export function stripeDashboardUrl(mode: StripeMode | null, id: string | null): string | null {
  if (!mode || !id) return null;
  const page = DASHBOARD_PAGES.find(([prefix]) => id.startsWith(prefix))?.[1];
  if (!page) return null;
  const base =
    mode === 'test' ? 'https://dashboard.stripe.com/test' : 'https://dashboard.stripe.com';
  return `${base}/${page}/${encodeURIComponent(id)}`;
}
