import type { SubscriptionPlanId } from '../../../contract/plan-rules';
import { apiRequest } from './api-client';

/**
 * Opens Stripe-hosted Checkout for a plan (the yearly one when none is named) in a new tab. The tab is opened synchronously inside the click, so
 * popup blockers allow it, and pointed at Checkout once the server has made the session. Where
 * the browser refuses a tab anyway, this tab goes to Checkout instead.
 */
export async function openCheckout(plan?: SubscriptionPlanId, offer?: string): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { url } = await apiRequest<{ url: string }>('/api/checkout', {
      method: 'POST',
      ...(plan && { body: { plan, ...(offer && { offer }) } }),
    });
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else {
      window.location.assign(url);
    }
  } catch (error) {
    tab?.close();
    throw error;
  }
}
