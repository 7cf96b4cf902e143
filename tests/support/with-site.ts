import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import type { User } from '../../contract/api.js';
import { startFakeStripe, type FakeStripe } from './fake-stripe.js';
import { seedStaff, type SeededMember } from './members.js';
import { SmtpCapture } from './smtp-capture.js';
import { createTestApp, createTestAppWithStripe, type TestApp } from './test-app.js';

/** Whoever a test calls the API as: a seeded member, a visitor, anything with a session cookie. */
export interface Caller {
  cookie: string;
}

/** The real app on a database of its own, with the calls nearly every API test makes. */
export interface Site extends TestApp {
  /**
   * Calls the API as `who`, or as a browser with no cookie at all (null). A string payload is sent
   * as it is, labelled JSON: for bodies that are not valid JSON.
   */
  call(
    who: Caller | null,
    method: HTTPMethods,
    url: string,
    payload?: object | string,
  ): Promise<LightMyRequestResponse>;
  /** GET /api/me as `who`: what the site says of their account and membership. */
  me(who: Caller): Promise<User>;
  /** The fake Stripe the site's payments go to (`payments: true`), its webhooks sent to the site. */
  readonly stripe: FakeStripe;
  /** The SMTP server the site's mail goes to (`mail: true`). */
  readonly mailbox: SmtpCapture;
  /**
   * Pays at the fake Stripe the PaymentIntent an answer's `clientSecret` is for, as Stripe.js
   * would, and delivers the events Stripe then sends; answers the PaymentIntent's id.
   */
  payClientSecret(answer: LightMyRequestResponse): Promise<string>;
}

export type SiteOptions = NonNullable<Parameters<typeof createTestApp>[0]> & {
  /** Payments on, against a fake Stripe of the site's own. */
  payments?: boolean;
  /** Mail sent to an SMTP server run in the test, for tests that read it. */
  mail?: boolean;
};

/**
 * A site for a test file, in one call: the real app, with a fake Stripe and a mailbox when asked,
 * and `call` and `me` bound to it. `close()` (in `afterAll`) stops all of it.
 */
export async function withSite(options: SiteOptions = {}): Promise<Site> {
  const { payments, mail, ...appOptions } = options;
  const stripe = payments ? await startFakeStripe() : null;
  const mailbox = mail ? await new SmtpCapture().start() : null;
  const withMail = mailbox
    ? { ...appOptions, env: { SMTP_URL: mailbox.url, ...appOptions.env } }
    : appOptions;
  const t = stripe
    ? await createTestAppWithStripe(stripe, withMail)
    : await createTestApp(withMail);
  const call: Site['call'] = (who, method, url, payload) =>
    t.app.inject({
      method,
      url,
      headers: {
        ...(who && { cookie: who.cookie }),
        ...(typeof payload === 'string' && { 'content-type': 'application/json' }),
      },
      ...(payload !== undefined && { payload }),
    });
  const site: Site = {
    ...t,
    call,
    async me(who) {
      const response = await call(who, 'GET', '/api/me');
      if (response.statusCode !== 200) {
        throw new Error(`/api/me: ${response.statusCode} ${response.body}`);
      }
      return (response.json() as { user: User }).user;
    },
    get stripe() {
      if (!stripe) throw new Error('This site has no payments: withSite({ payments: true })');
      return stripe;
    },
    get mailbox() {
      if (!mailbox) throw new Error('This site sends no mail to read: withSite({ mail: true })');
      return mailbox;
    },
    async payClientSecret(answer) {
      const secret = answer.statusCode === 200 ? answer.json().clientSecret : undefined;
      if (typeof secret !== 'string') {
        throw new Error(`No client secret to pay: ${answer.statusCode} ${answer.body}`);
      }
      const id = secret.split('_secret_')[0] ?? '';
      site.stripe.succeedPaymentIntent(id);
      await site.stripe.deliverPending();
      return id;
    },
    async close() {
      await t.close();
      await stripe?.stop();
      await mailbox?.stop();
    },
  };
  return site;
}

/**
 * The site the tests of what members give each other share (gifts, seats): payments and mail on,
 * `owner` and `editor` the addresses its staff lists name, both seeded and signed in.
 */
export async function withGivingSite(
  staff: { owner: string; editor: string },
  env: Record<string, string> = {},
): Promise<{ site: Site; owner: SeededMember; editor: SeededMember }> {
  const site = await withSite({
    payments: true,
    mail: true,
    env: { STAFF_EMAILS: staff.owner, EDITOR_EMAILS: staff.editor, ...env },
  });
  try {
    const [owner, editor] = await seedStaff(site, 'owner', 'editor');
    return { site, owner, editor };
  } catch (error) {
    await site.close();
    throw error;
  }
}

/**
 * Gives as `who` (a gift, seats: the POST to `url` with `payload`), pays at the fake Stripe and
 * sends the mail the payment queued; answers the PaymentIntent's id.
 */
export async function giveAndPay(
  site: Site,
  who: Caller,
  url: string,
  payload: object,
): Promise<string> {
  const id = await site.payClientSecret(await site.call(who, 'POST', url, payload));
  await site.app.giving.deliverNow();
  return id;
}
