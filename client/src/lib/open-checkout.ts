import type { SubscriptionPlanId } from '../../../contract/plan-rules';
import { apiRequest } from './api-client';

/** What a Checkout is for: a plan (the yearly one when none is named), a tier (by slug), a code. */
export interface CheckoutChoice {
  plan?: SubscriptionPlanId;
  /** The tier's slug; the site's default tier when left out. */
  tier?: string;
  offer?: string;
}

/**
 * Opens Stripe-hosted Checkout for a tier's plan in a new tab. The tab is opened synchronously
 * inside the click, so popup blockers allow it, and pointed at Checkout once the server has made
 * the session. Where the browser refuses a tab anyway, this tab goes to Checkout instead.
 */
export async function openCheckout(choice: CheckoutChoice = {}): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const body = {
      ...(choice.plan && { plan: choice.plan }),
      ...(choice.tier && { tier: choice.tier }),
      ...(choice.offer && { offer: choice.offer }),
    };
    const { url } = await apiRequest<{ url: string }>('/api/checkout', {
      method: 'POST',
      ...(Object.keys(body).length > 0 && { body }),
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
