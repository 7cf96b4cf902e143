import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { User } from '../../contract/api.js';
import { clientDistDir, projectRoot, ssrDistDir } from '../../server/src/paths.js';
import { buildStaff, type Member } from './factories.js';
import { startFakeStripe, type FakeStripe } from './fake-stripe.js';
import { madeLater } from './made-later.js';
import { freePort } from './site.js';
import { SmtpCapture } from './smtp-capture.js';
import { createDatabase, type Database } from '../../server/src/db/database.js';
import { createTestApp, type TestApp } from './test-app.js';
import { createMigratedTestDatabase, type TestDatabase } from './test-database.js';

// The one door to a site for a server test: `withSite(options)` (or `useSite(options)`, which
// makes it in the describe's beforeAll and closes it in its afterAll) builds the real app on a
// database of its own, with what the options ask: its env, payments against a fake Stripe of its
// own, a mailbox, a real port, the built pages. Its members, posts, comments and integrations come
// from the factories (factories.ts). A test of a module below the app takes the database alone
// (`useDatabase`); the built server as a process of its own is `startSite` (site.ts), for browser
// and operator tests.

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
  /** Where the site listens (`listen: true`): `http://127.0.0.1:<port>`, its SITE_URL. */
  readonly url: string;
}

export type SiteOptions = NonNullable<Parameters<typeof createTestApp>[0]> & {
  /** Payments on, against a fake Stripe of the site's own. */
  payments?: boolean;
  /** Mail sent to an SMTP server run in the test, for tests that read it. */
  mail?: boolean;
  /**
   * Listening on a free loopback port, for clients that speak HTTP (fetch, Ghost's clients); its
   * address is the SITE_URL unless `env` names another. Else requests are injected.
   */
  listen?: boolean;
  /**
   * The pages drawn by the built app (dist/client and dist/ssr), as in production: a site without
   * them answers 404 for pages. Fails at once, saying how to build, when there is no build.
   */
  built?: boolean;
};

/** The built client and page renderer, or an error that says to build them. */
export function builtDirs(): { clientDir: string; ssrDir: string } {
  const entry = join(ssrDistDir, 'entry-server.js');
  if (!existsSync(entry)) {
    throw new Error(
      `This test draws pages with the built app, and ${relative(projectRoot, entry)} is missing: run \`npm run build\` (\`npm run test:quick\` builds when the sources changed)`,
    );
  }
  return { clientDir: clientDistDir, ssrDir: ssrDistDir };
}

/**
 * A site for a test file, in one call: the real app, with a fake Stripe, a mailbox, a port and
 * the built pages when asked, and `call` and `me` bound to it. `close()` (in `afterAll`) stops
 * all of it.
 */
export async function withSite(options: SiteOptions = {}): Promise<Site> {
  const { payments, mail, listen, built, ...appOptions } = options;
  const dirs = built ? builtDirs() : {};
  const port = listen ? await freePort() : null;
  const url = port === null ? null : `http://127.0.0.1:${port}`;
  const env = {
    ...(url && { SITE_URL: url }),
    ...appOptions.env,
  };
  const stripe = payments ? await startFakeStripe() : null;
  const mailbox = mail ? await new SmtpCapture().start() : null;
  const stopHelpers = async () => {
    await stripe?.stop();
    await mailbox?.stop();
  };
  const t = await createTestApp({
    ...dirs,
    ...appOptions,
    env: { ...stripe?.env(), ...(mailbox && { SMTP_URL: mailbox.url }), ...env },
  }).catch(async (error: unknown) => {
    await stopHelpers();
    throw error;
  });
  // What happens at the fake Stripe reaches the site's webhook endpoint, as Stripe's events would.
  stripe?.setWebhookTarget(async ({ payload, headers }) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      payload,
      headers,
    });
    return response.statusCode;
  });
  if (port !== null) {
    await t.app.listen({ port, host: '127.0.0.1' }).catch(async (error: unknown) => {
      await t.close();
      await stopHelpers();
      throw error;
    });
  }
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
    get url() {
      if (!url)
        throw new Error('This site answers injected requests only: withSite({ listen: true })');
      return url;
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
      await stopHelpers();
    },
  };
  return site;
}

/**
 * The site of the calling describe: made by its `beforeAll` (this one, and before those declared
 * after it), closed by its `afterAll`. Answered at once, as a stand-in until then (`madeLater`),
 * so a test file names it in one `const` and uses it in its tests and later hooks.
 */
export function useSite(options: SiteOptions = {}): Site {
  const [site, make, made] = madeLater<Site>('The site');
  beforeAll(async () => {
    make(await withSite(options));
  });
  afterAll(async () => {
    await made()?.close();
  });
  return site;
}

/**
 * Two app servers on one database, as a deployment with two runs them, for the calling describe:
 * the first made with `first`, then the second with `second` on the first's database; both made
 * by its `beforeAll` and closed, the second first, by its `afterAll`.
 */
export function useTwoServers(first: SiteOptions, second: SiteOptions = first): [Site, Site] {
  const [a, makeA, madeA] = madeLater<Site>('The first server');
  const [b, makeB, madeB] = madeLater<Site>('The second server');
  beforeAll(async () => {
    const made = makeA(await withSite(first));
    makeB(await withSite({ ...second, sharedDatabase: made.testDatabase }));
  });
  afterAll(async () => {
    await madeB()?.close();
    await madeA()?.close();
  });
  return [a, b];
}

/**
 * A migrated database of the calling describe's own and the app's pool on it, for the tests of a
 * module below the app: made by its `beforeAll`, closed and dropped by its `afterAll`, standing in
 * until then (`madeLater`). At most `maxConnections` pooled connections (3 unless said; one on
 * the embedded database, which serves one backend).
 */
export function useDatabase(
  options: { maxConnections?: number; refuseSecondConnections?: boolean } = {},
): { db: Database; testDatabase: TestDatabase } {
  const [testDatabase, makeTestDatabase, madeTestDatabase] =
    madeLater<TestDatabase>('The test database');
  const [db, makeDb, madeDb] = madeLater<Database>('The database');
  beforeAll(async () => {
    const made = makeTestDatabase(await createMigratedTestDatabase());
    makeDb(
      createDatabase(made.url, {
        maxConnections: made.embedded ? 1 : (options.maxConnections ?? 3),
        embedded: made.embedded,
        ...(options.refuseSecondConnections && { refuseSecondConnections: true }),
      }),
    );
  });
  afterAll(async () => {
    await madeDb()?.close();
    await madeTestDatabase()?.drop();
  });
  return { db, testDatabase };
}

/**
 * The site the tests of what members give each other share (gifts, seats): payments and mail on,
 * `owner` and `editor` the addresses its staff lists name, both seeded and signed in.
 */
export async function withGivingSite(
  staff: { owner: string; editor: string },
  env: Record<string, string> = {},
): Promise<{ site: Site; owner: Member; editor: Member }> {
  const site = await withSite({
    payments: true,
    mail: true,
    env: { STAFF_EMAILS: staff.owner, EDITOR_EMAILS: staff.editor, ...env },
  });
  try {
    const [owner, editor] = await buildStaff(site, 'owner', 'editor');
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
