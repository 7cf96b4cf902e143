import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeStripe } from '#test/fake-stripe';
import { buildMember, buildPost } from '#test/factories';
import { newPaymentEvent } from '#test/payment-deliveries';
import { pgbouncerBinary, startPgBouncer, type PgBouncer } from '#test/pgbouncer';
import { registerThroughMail } from '#test/registration';
import type { SmtpCapture } from '#test/smtp-capture';
import { createTestDatabase, type TestDatabase } from '#test/test-database';
import { withSite, type Site } from '#test/with-site';
import { applyMigrations, pendingMigrations } from '../../server/src/db/migrate.js';
import { migrationsDir } from '../../server/src/paths.js';
import { POLL_MS } from '../../server/src/plugins/app/site-content-plugin.js';

/**
 * A managed PostgreSQL behind PgBouncer in transaction mode (Debian's pgbouncer, started here on a
 * free port): each transaction may run on another server connection, so nothing may rely on a
 * session (no named prepared statements, no session advisory locks, no SET). The app connects
 * with `?pgbouncer=true`, as an operator's DATABASE_URL would.
 */

const OWNER = 'owner@example.com';

const title =
  pgbouncerBinary && process.env.TEST_DATABASE_URL
    ? 'the app through PgBouncer in transaction mode'
    : 'the app through PgBouncer in transaction mode (SKIPPED: needs pgbouncer and TEST_DATABASE_URL)';

describe.skipIf(!pgbouncerBinary || !process.env.TEST_DATABASE_URL)(title, () => {
  let bouncer: PgBouncer;
  let testApp: Site;
  let stripe: FakeStripe;
  let mailbox: SmtpCapture;
  const throughBouncer = (url: string) => {
    const pooled = new URL(bouncer.urlFor(url));
    pooled.searchParams.set('pgbouncer', 'true');
    return pooled.toString();
  };

  beforeAll(async () => {
    // Two server connections for the app's eight: transactions take turns on them.
    bouncer = await startPgBouncer(process.env.TEST_DATABASE_URL ?? '', { poolSize: 2 });
    testApp = await withSite({
      payments: true,
      mail: true,
      env: { STAFF_EMAILS: OWNER },
      connectThrough: async (url) => throughBouncer(url),
      maxConnections: 8,
    });
    stripe = testApp.stripe;
    mailbox = testApp.mailbox;
  });
  afterAll(async () => {
    await testApp?.close();
    await bouncer?.stop();
  });

  it('keeps sessions: GET /api/me answers every time, many at once', async () => {
    const started = await testApp.app.inject({ method: 'POST', url: '/api/session' });
    expect(started.statusCode).toBe(200);
    const cookie = String(started.headers['set-cookie']).split(';')[0] ?? '';
    const userId = started.json().user.id as string;

    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        testApp.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((answer) => answer.json().user.id))).toEqual(new Set([userId]));

    // Registering, then the button of the page the mailed link opens: each a transaction.
    const registered = await registerThroughMail(
      (options) =>
        testApp.app.inject({ ...options, headers: { cookie, origin: testApp.config.siteUrl } }),
      mailbox,
      { email: 'bouncer@example.com', password: 'a long and unusual passphrase 42' },
    );
    expect(registered.statusCode, registered.body).toBe(200);
    // Registering starts a new session (the old one ends): its cookie is the one that works now.
    const newCookie = String(registered.headers['set-cookie'] ?? cookie).split(';')[0] ?? '';
    const me = await testApp.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: newCookie },
    });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().user).toMatchObject({ id: userId, email: 'bouncer@example.com' });
  });

  it('grants a membership from a webhook once, however often it arrives', async () => {
    const started = await testApp.app.inject({ method: 'POST', url: '/api/session' });
    const cookie = String(started.headers['set-cookie']).split(';')[0] ?? '';
    const payment = newPaymentEvent(stripe, started.json().user.id as string);

    const deliveries = await Promise.all(
      Array.from({ length: 4 }, () => {
        const { payload, headers } = stripe.signedDelivery(payment.event);
        return testApp.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers });
      }),
    );
    expect(deliveries.map((delivery) => delivery.statusCode)).toEqual([200, 200, 200, 200]);

    const me = await testApp.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.json().user).toMatchObject({
      isSubscribed: true,
      membership: { plan: 'one-time', status: 'active' },
    });
    const { rows } = await testApp.database.pool.query<{ count: string }>(
      'SELECT count(*) FROM entitlements WHERE "userId" = $1',
      [payment.userId],
    );
    expect(Number(rows[0]?.count)).toBe(1);
  });

  it('tells a server that listens of a change made through it, and polls for one made elsewhere', async () => {
    // A second app server on the same database, connected directly: it LISTENs.
    const direct = await withSite({
      env: { STAFF_EMAILS: OWNER },
      sharedDatabase: testApp.testDatabase,
    });
    try {
      const owner = await buildMember(direct, { email: OWNER });
      const { cookie } = owner;
      const call = (t: Site, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
        t.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });
      const topicOn = async (t: Site) => {
        const listed = await call(t, 'GET', '/api/desk/topics');
        const topics = listed.json().topics as {
          slug: string;
          count: number;
          description: string;
        }[];
        return topics.find((topic) => topic.slug === 'pooled');
      };
      /** Milliseconds until `t` shows the topic `pooled` as `shown` says (gives up at 5 s). */
      const until = async (
        t: Site,
        shown: (topic: { count: number; description: string }) => boolean,
      ) => {
        const started = performance.now();
        for (let topic = await topicOn(t); !topic || !shown(topic); topic = await topicOn(t)) {
          if (performance.now() - started > 5_000) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return performance.now() - started;
      };
      const publish = (t: Site, slug: string) =>
        buildPost(t, { by: owner, title: 'Pooled Connections', slug, tags: ['Pooled'] });

      // Published through PgBouncer: the server that listens is told.
      await publish(testApp, 'pooled-through-pgbouncer');
      expect(await until(direct, (topic) => topic.count === 1)).toBeLessThan(2_000);
      // Published on the other: the one behind PgBouncer asks, and finds it.
      await publish(direct, 'pooled-directly');
      expect(await until(testApp, (topic) => topic.count === 2)).toBeLessThan(POLL_MS + 1_000);

      // A change to a topic, not a post, is found the same way.
      const description = 'What a pooler in front of PostgreSQL changes.';
      const described = await call(direct, 'PUT', '/api/desk/topics/pooled', { description });
      expect(described.statusCode, described.body).toBe(200);
      const took = await until(testApp, (topic) => topic.description === description);
      expect(await topicOn(testApp)).toMatchObject({ count: 2, description });
      expect(took).toBeLessThan(POLL_MS + 1_000);
    } finally {
      await direct.close();
    }
  });

  it('applies migrations through it, two servers at once, and then finds none pending', async () => {
    const database: TestDatabase = await createTestDatabase();
    try {
      const url = throughBouncer(database.url);
      const log = { info: () => {}, warn: () => {} };
      const [first, second] = await Promise.all([
        applyMigrations(url, migrationsDir, log),
        applyMigrations(url, migrationsDir, log),
      ]);
      // One of them applied everything; the other, waiting on the lock, found nothing left.
      expect([first.length, second.length].sort((a, b) => a - b)[0]).toBe(0);
      expect(first.length + second.length).toBeGreaterThan(5);
      expect(await pendingMigrations(url, migrationsDir, log)).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
