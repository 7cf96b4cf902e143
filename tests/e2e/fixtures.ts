import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { FakeStripe, type StripeObject } from '#test/fake-stripe';
import { EARLY_ACCESS_OFFER } from '../../contract/constants.js';
import type { PostJson } from '../../contract/posts.js';
import { deliverPaymentSucceeded } from './support/deliver-webhook.js';
import { visit } from './support/visit.js';
import { startSite, type RunningSite } from '#test/site';
import { tokenFromMail, waitForMail } from '#test/registration';
import { SmtpCapture } from '#test/smtp-capture';
import { stripeJsStandIn } from './support/stripe-js-stand-in.js';

export { STAFF } from './sites.js';

interface WorkerFixtures {
  // The site this worker runs: its project's options (tests/e2e/sites.ts, playwright.config.ts).
  /** Extra environment for the site's server. */
  siteEnv: Record<string, string>;
  /** The site's host name (127.0.0.1 unless set; passkeys need a name: `localhost`). */
  siteHostname: string;
  /** Run the site with payments on, against a fake Stripe API. */
  payments: boolean;
  /** The fake Stripe API the site talks to, when `payments` is on. */
  stripe: FakeStripe | null;
  /** A real SMTP server the site sends its mail to: what a reader would find in their inbox. */
  mailbox: SmtpCapture;
  site: RunningSite;
}

export interface Account {
  id: string;
  email: string;
  password: string;
}

interface TestFixtures {
  /** Pays the early-access year for a user at the fake Stripe and delivers its signed webhook. */
  pay: (userId: string) => Promise<StripeObject>;
  /** A reader who registered in this page's browser, signed in, not a member. */
  registered: Account;
  /** A registered member: the early-access year paid, its webhook delivered. */
  member: Account;
  /**
   * A page in a browser of its own (none of this page's cookies), signed in as `account` with
   * `signInAs`: staff acting beside the test's reader. Its browser is closed after the test, if
   * the test has not closed it.
   */
  signedInElsewhere: (account: { email: string; password: string }) => Promise<Page>;
  /** Console errors a test provokes on purpose (`test.use({ expectedConsoleErrors: [...] })`). */
  expectedConsoleErrors: RegExp[];
  failOnConsoleErrors: undefined;
  /** Serves the Stripe.js stand-in in place of js.stripe.com. */
  stripeJs: undefined;
}

/**
 * Registers as a reader does (docs/decisions/0014): the form's request, then the password chosen on
 * the page the mailed link opens and its button, with the token read from the mail the site sent.
 * Signs `request`'s browser in.
 */
export async function registerThroughMail(
  request: APIRequestContext,
  mailbox: SmtpCapture,
  account: { email: string; password: string },
): Promise<{ id: string; email: string }> {
  const before = mailbox.mailsTo(account.email).length;
  const asked = await request.post('/api/auth/register', { data: { email: account.email } });
  expect(asked.status(), await asked.text()).toBe(202);
  const mail = await waitForMail(mailbox, account.email, before + 1);
  const response = await request.post('/api/auth/register/confirm', {
    data: { token: tokenFromMail(mail.text, '/register/confirm'), password: account.password },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).user;
}

/**
 * Signs this page's browser in to `email`'s account (opening the site first), registering it
 * through the mailed link the first time: how a test becomes staff named in STAFF_EMAILS.
 */
export async function signInAs(
  page: Page,
  mailbox: SmtpCapture,
  account: { email: string; password: string },
): Promise<void> {
  await visit(page, '/');
  const signedIn = await page.request.post('/api/auth/login', { data: account });
  if (signedIn.status() === 200) return;
  // Only "no such account or password" means registering: any other answer (a limit) is the test's.
  expect(signedIn.status(), await signedIn.text()).toBe(401);
  await registerThroughMail(page.request, mailbox, account);
}

/**
 * Signs this page's browser in as `account` (`signInAs`) and makes a draft article from the desk's
 * API, as the editor's tests start; answers the draft.
 */
export async function signInWithArticle(
  page: Page,
  mailbox: SmtpCapture,
  account: { email: string; password: string },
  title: string,
  body?: string,
): Promise<PostJson> {
  await signInAs(page, mailbox, account);
  return createPost(page.request, { kind: 'article', title, ...(body !== undefined && { body }) });
}

/** A post made from the desk's API by the staff member `request` is signed in as: the draft. */
export async function createPost(
  request: APIRequestContext,
  fields: Record<string, unknown>,
): Promise<PostJson> {
  const created = await request.post('/api/desk/posts', { data: fields });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { post: PostJson }).post;
}

/** A draft article with every field publishing needs: `fields` over a plain Wealth article's. */
export const createArticle = (request: APIRequestContext, fields: Record<string, unknown>) =>
  createPost(request, {
    kind: 'article',
    category: 'Wealth',
    summary: 'What the article is about.',
    readingMinutes: 2,
    body: 'A paragraph of the article.',
    ...fields,
  });

/** Publishes the post at `version` (the one last read) from the desk's API: the post published. */
export async function publishPost(
  request: APIRequestContext,
  { id, version }: Pick<PostJson, 'id' | 'version'>,
): Promise<PostJson> {
  const published = await request.post(`/api/desk/posts/${id}/publish`, { data: { version } });
  expect(published.status(), await published.text()).toBe(200);
  return ((await published.json()) as { post: PostJson }).post;
}

/**
 * Runs `work` with the API of a browser of its own signed in as `account` (`signInAs`), as a file's
 * setup does before its tests; the browser is closed after.
 */
export async function asStaff(
  { browser, site, mailbox }: { browser: Browser; site: RunningSite; mailbox: SmtpCapture },
  account: { email: string; password: string },
  work: (request: APIRequestContext) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ baseURL: site.url });
  try {
    const page = await context.newPage();
    await signInAs(page, mailbox, account);
    await work(page.request);
  } finally {
    await context.close();
  }
}

/**
 * Makes a tier from the desk's API; a 409 means the worker's site has it from a file before (the
 * site outlives a spec file), which is as good.
 */
export async function ensureTier(request: APIRequestContext, fields: Record<string, unknown>) {
  const made = await request.post('/api/desk/tiers', { data: fields });
  expect([201, 409], await made.text()).toContain(made.status());
}

/** Each worker runs the real built site on a port and database of its own. */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  siteEnv: [{}, { scope: 'worker', option: true }],
  siteHostname: ['127.0.0.1', { scope: 'worker', option: true }],
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
  mailbox: [
    // Playwright reads a fixture's dependencies from its first parameter: this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const mailbox = await new SmtpCapture().start();
      await use(mailbox);
      await mailbox.stop();
    },
    { scope: 'worker' },
  ],
  site: [
    async ({ siteEnv, siteHostname, stripe, mailbox }, use) => {
      const site = await startSite(
        { ...(stripe ? stripe.env() : {}), SMTP_URL: mailbox.url, ...siteEnv },
        { hostname: siteHostname },
      );
      await use(site);
      await site.stop();
    },
    // A site starts once per worker, in about 20 s on a busy machine and over 30 s on a busier
    // one: a test's 30 s would fail the first test of a worker whose start the other worker's load
    // slowed (the server's own wait, 120 s, says why when it does not start).
    { scope: 'worker', timeout: 150_000 },
  ],
  baseURL: async ({ site }, use) => {
    await use(site.url);
  },
  pay: async ({ stripe, site, page }, use) => {
    await use(async (userId) => {
      if (!stripe) throw new Error('pay needs a site with payments on (tests/e2e/sites.ts)');
      const intent = stripe.paidPaymentIntent({ userId, offer: EARLY_ACCESS_OFFER });
      const status = await deliverPaymentSucceeded(page.request, site.url, stripe, intent);
      expect(status, 'the payment webhook').toBe(200);
      return intent;
    });
  },
  registered: async ({ page, mailbox }, use) => {
    const account = { email: uniqueEmail(), password: 'my long enough passphrase' };
    await visit(page, '/');
    const user = await registerThroughMail(page.request, mailbox, account);
    await use({ id: user.id, ...account });
  },
  member: async ({ registered, pay }, use) => {
    await pay(registered.id);
    await use(registered);
  },
  signedInElsewhere: async ({ browser, site, mailbox }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (account) => {
      const context = await browser.newContext({ baseURL: site.url });
      contexts.push(context);
      const page = await context.newPage();
      await signInAs(page, mailbox, account);
      return page;
    });
    for (const context of contexts) await context.close();
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
            body: stripeJsStandIn(),
          }),
        );
        // The stand-in calls api.stripe.com as Stripe.js does (the site's CSP allows only that);
        // the fake Stripe API answers in its place.
        await page.route('https://api.stripe.com/**', async (route) => {
          const { pathname, search } = new URL(route.request().url());
          const response = await route.fetch({ url: `${stripe.url}${pathname}${search}` });
          await route.fulfill({ response });
        });
      }
      await use(undefined);
    },
    { auto: true },
  ],
});

export { expect };

export const uniqueEmail = () =>
  `reader-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/**
 * Opens `path` with Playwright's clock in charge, waits until the session and the site config
 * have arrived (what the paywall waits for), then moves time past the paywall's delay: no sleeps.
 */
export async function openPastPaywallDelay(page: Page, path: string, delayMs: number) {
  await page.clock.install();
  const config = page.waitForResponse((r) => r.url().endsWith('/api/config') && r.ok());
  await visit(page, path);
  await config;
  await page.clock.runFor(delayMs + 1_000);
}
