import { test as base, expect } from '@playwright/test';
import { startSite, type RunningSite } from '../support/site.js';

interface WorkerFixtures {
  /** Extra environment for the site this worker runs (`test.use({ siteEnv: {...} })`). */
  siteEnv: Record<string, string>;
  site: RunningSite;
}

/** Each worker runs the real built site on a port and database of its own. */
interface TestFixtures {
  /** Console errors a test provokes on purpose (`test.use({ expectedConsoleErrors: [...] })`). */
  expectedConsoleErrors: RegExp[];
  failOnConsoleErrors: undefined;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  expectedConsoleErrors: [[], { option: true }],
  siteEnv: [{}, { scope: 'worker', option: true }],
  site: [
    async ({ siteEnv }, use) => {
      const site = await startSite(siteEnv);
      await use(site);
      await site.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ site }, use) => {
    await use(site.url);
  },
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
});

export { expect };
