import { test as base, expect } from '@playwright/test';
import { FakeStripe } from '../support/fake-stripe.js';
import { startSite, type RunningSite } from '../support/site.js';
import { stripeJsStandIn } from './support/stripe-js-stand-in.js';

interface WorkerFixtures {
  /** Extra environment for the site this worker runs (`test.use({ siteEnv: {...} })`). */
  siteEnv: Record<string, string>;
  /** Run the site with payments on, against a fake Stripe API (`test.use({ payments: true })`). */
  payments: boolean;
  /** The fake Stripe API the site talks to, when `payments` is on. */
  stripe: FakeStripe | null;
  site: RunningSite;
}

interface TestFixtures {
  /** Console errors a test provokes on purpose (`test.use({ expectedConsoleErrors: [...] })`). */
  expectedConsoleErrors: RegExp[];
  failOnConsoleErrors: undefined;
  /** Serves the Stripe.js stand-in in place of js.stripe.com. */
  stripeJs: undefined;
}

/** Each worker runs the real built site on a port and database of its own. */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  siteEnv: [{}, { scope: 'worker', option: true }],
  payments: [false, { scope: 'worker', option: true }],
  stripe: [
    async ({ payments }, use) => {
      if (!payments) return use(null);
      const stripe = await new FakeStripe().start();
      await use(stripe);
      await stripe.stop();
    },
    { scope: 'worker' },
  ],
  site: [
    async ({ siteEnv, stripe }, use) => {
      const site = await startSite({ ...(stripe ? stripe.env() : {}), ...siteEnv });
      await use(site);
      await site.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ site }, use) => {
    await use(site.url);
  },
  expectedConsoleErrors: [[], { option: true }],
  // An error in the browser console fails the test: it is a bug even when the page looks right.
  failOnConsoleErrors: [
    async ({ page, expectedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(undefined);
      const unexpected = errors.filter(
        (error) => !expectedConsoleErrors.some((pattern) => pattern.test(error)),
      );
      expect(unexpected, 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],
  stripeJs: [
    async ({ page, stripe }, use) => {
      if (stripe) {
        await page.route('https://js.stripe.com/**', (route) =>
          route.fulfill({
            contentType: 'application/javascript',
            body: stripeJsStandIn(stripe.url),
          }),
        );
      }
      await use(undefined);
    },
    { auto: true },
  ],
});

export { expect };
