import type Stripe from 'stripe';

/**
 * Whether Stripe accepts this site's keys, as far as the last answers tell: shown on `/readyz`
 * and by the start-up check. Stripe refusing the secret key (401, a wrong, rolled or deleted key)
 * or its permissions (403, a restricted key missing one) marks payments misconfigured; the next
 * answer Stripe accepts clears it (the operator fixed the key and restarted, or Stripe recovered).
 */
export type PaymentsState = 'unchecked' | 'ok' | 'misconfigured';

export interface PaymentsStatusView {
  state: PaymentsState;
  /** What is wrong and what to change, for the operator. */
  problem?: string;
  since?: string;
  /** The start-up check's problems (`npm run stripe:check` prints them with their fixes). */
  check?: { at: string; problems: string[] };
}

export class PaymentsStatus {
  private state: PaymentsState = 'unchecked';
  private problem: string | undefined;
  private since: Date | undefined;
  private check: PaymentsStatusView['check'];

  /** Follows every answer the SDK receives. */
  watch(stripe: Stripe): void {
    stripe.on('response', (response: Stripe.ResponseEvent) => {
      if (response.status === 401 || response.status === 403) {
        this.markMisconfigured(
          response.status === 401
            ? 'Stripe refused STRIPE_SECRET_KEY (401): the key is wrong, rolled or deleted. Paste the current secret key from Dashboard → Developers → API keys and restart.'
            : `Stripe refused a call with STRIPE_SECRET_KEY (403, ${response.method} ${response.path}): a restricted key lacks a permission Cohort needs, or the account cannot use this feature.`,
        );
      } else if (response.status < 500) {
        this.markOk();
      }
    });
  }

  markMisconfigured(problem: string): void {
    if (this.state !== 'misconfigured' || this.problem !== problem) this.since = new Date();
    this.state = 'misconfigured';
    this.problem = problem;
  }

  markOk(): void {
    if (this.state === 'ok') return;
    this.state = 'ok';
    this.problem = undefined;
    this.since = new Date();
  }

  /** What the start-up check found wrong (errors only). */
  recordCheck(problems: string[]): void {
    this.check = { at: new Date().toISOString(), problems };
  }

  view(): PaymentsStatusView {
    return {
      state: this.state,
      ...(this.problem && { problem: this.problem }),
      ...(this.since && { since: this.since.toISOString() }),
      ...(this.check && { check: this.check }),
    };
  }
}
