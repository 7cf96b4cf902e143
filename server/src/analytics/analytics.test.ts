import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskAnalytics, DeskPostAnalytics } from '../../../contract/analytics.js';
import { buildStaff, type Member } from '#test/factories';
import { registerThroughMail } from '#test/registration';
import { newVisitor, visitorWith } from '#test/visitor';
import { withSite, type Site } from '#test/with-site';
import { LIMITS } from '../limits.js';
import { VIEWS_PER_VISITOR_PAGE_DAY } from './event-writer.js';
import { utcDay } from './visitors.js';

// Analytics (docs/analytics.md): views counted by POST /api/events against the real app and
// PostgreSQL, visitors once a day without an address stored, sources, conversions credited to the
// post read last, the rollup, the retention, and what the desk shows to whom.

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const WRITER = 'writer@example.com';
const SITE = 'https://members.example.org';

/** A reader: an address and a browser of their own (documentation addresses, RFC 5737). */
const reader = (n: number) => ({
  ip: `198.51.100.${n}`,
  userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.${n}.0 Safari/537.36`,
});
type Reader = ReturnType<typeof reader>;

const CRAWLERS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
];

describe('analytics', () => {
  let site: Site;
  let owner: Member;
  let editor: Member;
  let writer: Member;
  /** Posts: A and B by the owner, W by the writer. */
  const posts: Record<'a' | 'b' | 'w', { id: number; path: string }> = {
    a: { id: 0, path: '' },
    b: { id: 0, path: '' },
    w: { id: 0, path: '' },
  };
  const today = utcDay(new Date());

  async function publish(as: Member, title: string, slug: string) {
    const created = await site.call(as, 'POST', '/api/desk/posts', {
      kind: 'article',
      title,
      slug,
      category: 'Wealth',
      summary: `About ${title}.`,
      readingMinutes: 3,
      body: 'Some words.\n',
    });
    expect(created.statusCode, created.body).toBe(201);
    const { post } = created.json<{ post: { id: number; version: number } }>();
    const done = await site.call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(done.statusCode, done.body).toBe(200);
    return { id: post.id, path: done.json<{ post: { path: string } }>().post.path };
  }

  /** The beacon's request, from `who`. */
  const view = (who: Reader | null, payload: object | string, headers: object = {}) =>
    site.app.inject({
      method: 'POST',
      url: '/api/events',
      remoteAddress: who?.ip ?? '203.0.113.9',
      headers: { ...(who && { 'user-agent': who.userAgent }), ...headers },
      payload,
    });

  async function read(who: Reader, path: string, referrer?: string) {
    const answer = await view(who, { type: 'pageview', path, ...(referrer && { referrer }) });
    expect(answer.statusCode, answer.body).toBe(202);
    expect(answer.body).toBe('');
  }

  const rawViews = async () => {
    await site.app.analytics.flush();
    const { rows } = await site.database.pool.query<{ count: string }>(
      `SELECT count(*) FROM "analytics_events"`,
    );
    return Number(rows[0]?.count);
  };

  async function desk(who: Member | null, query = `from=${today}&to=${today}`) {
    const answer = await site.call(who, 'GET', `/api/desk/analytics?${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<DeskAnalytics>();
  }

  /**
   * On the embedded PGlite (no server for pg_dump to reach): every row of every table as text,
   * which is what pg_dump's data is.
   */
  async function everyRowAsText(): Promise<string> {
    const pool = site.database.pool;
    const { rows: tables } = await pool.query<{ name: string }>(
      `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS "name"
         FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
    );
    const lines = tables.map(({ name }) => name);
    for (const { name } of tables) {
      const { rows } = await pool.query<{ row: string }>(`SELECT t::text AS "row" FROM ${name} t`);
      lines.push(...rows.map(({ row }) => row));
    }
    return lines.join('\n');
  }

  beforeAll(async () => {
    site = await withSite({
      payments: true,
      mail: true,
      env: { SITE_URL: SITE, STAFF_EMAILS: OWNER, EDITOR_EMAILS: EDITOR, WRITER_EMAILS: WRITER },
    });
    [owner, editor, writer] = await buildStaff(site, 'owner', 'editor', 'writer');
    posts.a = await publish(owner, 'Post A', 'post-a');
    posts.b = await publish(owner, 'Post B', 'post-b');
    posts.w = await publish(writer, 'Post W', 'post-w');
  });
  afterAll(async () => {
    await site?.close();
  });

  it('counts 20 readers reading a post twice as 40 views and 20 visitors', async () => {
    for (let n = 1; n <= 20; n += 1) {
      await read(reader(n), posts.a.path);
      await read(reader(n), `${posts.a.path}?utm_medium=x`, `${SITE}/`);
    }
    const figures = await desk(owner);
    expect(figures.totals.views).toBe(40);
    expect(figures.totals.visitors).toBe(20);
    expect(figures.days).toEqual([{ date: today, views: 40, visitors: 20 }]);
    const a = figures.posts.find((post) => post.postId === posts.a.id);
    expect(a).toMatchObject({ path: posts.a.path, title: 'Post A', views: 40, visitors: 20 });
    // No ref and no outside referrer on the first view, the site itself on the second: Direct.
    expect(figures.sources).toEqual([{ source: 'Direct', visitors: 20, signups: 0 }]);
  });

  it('counts nothing for crawlers, a browser without a user agent, API paths and unknown pages', async () => {
    const before = await rawViews();
    for (const [n, userAgent] of CRAWLERS.entries()) {
      const crawler = { ip: `192.0.2.${n + 1}`, userAgent };
      await read(crawler, posts.a.path);
      await read(crawler, '/');
    }
    const nobody = await view(null, { type: 'pageview', path: posts.a.path });
    expect(nobody.statusCode).toBe(202);
    for (const path of [
      '/api/desk/analytics',
      '/api/events',
      '/desk',
      '/desk/posts',
      '/no-such-page',
      '/wealth/no-such-post',
      '/register',
      '//evil.example/wealth',
    ]) {
      await read(reader(99), path);
    }
    expect(await rawViews()).toBe(before);
    // The same reader on a real page counts: what refused the others was the page.
    await read(reader(99), '/');
    expect(await rawViews()).toBe(before + 1);
  });

  it('answers a body that is not an event with a 400 that says what an event is', async () => {
    for (const payload of [
      { type: 'click', path: '/' },
      { type: 'pageview' },
      { type: 'pageview', path: 'wealth' },
      { type: 'pageview', path: '/', referrer: 7 },
      { type: 'pageview', path: '/', extra: true },
      '{"type": "pageview", "path": ',
    ]) {
      const answer = await view(reader(1), payload, { 'content-type': 'application/json' });
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      expect(answer.json()).toMatchObject({ error: { code: expect.any(String) } });
    }
  });

  it('names sources by ref, utm_source and the referrer’s host, and Direct when none', async () => {
    await read(reader(31), posts.b.path, 'https://news.ycombinator.com/item?id=4242');
    await read(reader(32), `${posts.b.path}?ref=newsletter`, 'https://news.ycombinator.com/');
    await read(reader(33), `${posts.b.path}?utm_source=mastodon&utm_medium=social`);
    await read(reader(34), posts.b.path);
    // Moving on inside the site keeps the source the reader came with.
    await read(reader(31), '/', `${SITE}${posts.b.path}`);
    await site.app.analytics.flush();
    const { rows } = await site.database.pool.query<{ source: string | null }>(
      `SELECT "source" FROM "analytics_events" WHERE "postId" = $1 ORDER BY "id"`,
      [posts.b.id],
    );
    expect(rows.map((row) => row.source)).toEqual([
      'news.ycombinator.com',
      'newsletter',
      'mastodon',
      'Direct',
    ]);
    const post = await site.call(
      owner,
      'GET',
      `/api/desk/analytics/posts/${posts.b.id}?from=${today}&to=${today}`,
    );
    expect(post.statusCode, post.body).toBe(200);
    const sources = post.json<DeskPostAnalytics>().sources;
    expect(sources).toEqual(
      expect.arrayContaining([
        { source: 'news.ycombinator.com', visitors: 1, signups: 0 },
        { source: 'newsletter', visitors: 1, signups: 0 },
        { source: 'mastodon', visitors: 1, signups: 0 },
        { source: 'Direct', visitors: 1, signups: 0 },
      ]),
    );
    expect(sources).toHaveLength(4);
  });

  /** What `who` sends `times` times as fast as it can, answered by status. */
  async function flood(times: number, who: (n: number) => Reader, path: string) {
    const statuses = new Map<number, number>();
    for (let n = 0; n < times; n += 1) {
      const { statusCode } = await view(who(n), { type: 'pageview', path });
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    }
    return statuses;
  }
  const postFigures = async (postId: number) => {
    await site.app.analytics.flush();
    const { rows } = await site.database.pool.query<{ views: number; visitors: number }>(
      `SELECT count(*)::int AS "views", count(DISTINCT "visitor")::int AS "visitors"
         FROM "analytics_events" WHERE "postId" = $1`,
      [postId],
    );
    return rows[0] ?? { views: 0, visitors: 0 };
  };

  it('refuses most of 1,000 views of a post from one browser, and counts it 10 times at most', async () => {
    const before = await postFigures(posts.b.id);
    const statuses = await flood(1_000, () => reader(240), posts.b.path);
    expect(statuses.get(202)).toBe(LIMITS.events.max);
    expect(statuses.get(429)).toBe(1_000 - LIMITS.events.max);
    const after = await postFigures(posts.b.id);
    expect(after.views - before.views).toBe(VIEWS_PER_VISITOR_PAGE_DAY);
    expect(after.visitors - before.visitors).toBe(1);
  });

  it('refuses most of 1,000 views from one address whose browser changes every time', async () => {
    const before = await postFigures(posts.b.id);
    const statuses = await flood(
      1_000,
      (n) => ({ ip: '198.51.100.241', userAgent: `${reader(241).userAgent} Fake/${n}` }),
      posts.b.path,
    );
    expect(statuses.get(429)).toBe(1_000 - LIMITS.events.max);
    const after = await postFigures(posts.b.id);
    expect(after.views - before.views).toBe(LIMITS.events.max);
    expect(after.visitors - before.visitors).toBe(LIMITS.events.max);
  });

  it('credits three signups after post A to A, and two payments after post B to B with their revenue', async () => {
    for (let n = 41; n <= 43; n += 1) {
      const who = reader(n);
      await read(who, `${posts.a.path}?ref=friends`);
      const visitor = await newVisitor(site.app);
      const asReader = visitorWith(site.app, visitor.userId, visitor.cookie);
      const registered = await registerThroughMail(
        (options) =>
          asReader.request({
            ...options,
            remoteAddress: who.ip,
            headers: { 'user-agent': who.userAgent },
          }),
        site.mailbox,
        { email: `reader${n}@example.com`, password: 'a long enough passphrase here' },
      );
      expect(registered.statusCode, registered.body).toBe(200);
    }
    const paid: string[] = [];
    for (let n = 51; n <= 52; n += 1) {
      const who = reader(n);
      await read(who, posts.b.path, 'https://news.ycombinator.com/');
      // A reader who then read the home page: the post read last is still B.
      await read(who, '/', `${SITE}${posts.b.path}`);
      const visitor = await newVisitor(site.app);
      const gift = await site.app.inject({
        method: 'POST',
        url: '/api/gifts',
        remoteAddress: who.ip,
        headers: { 'user-agent': who.userAgent, cookie: visitor.cookie },
        payload: { recipientEmail: `friend${n}@example.com`, buyerEmail: `giver${n}@example.com` },
      });
      paid.push(await site.payClientSecret(gift));
    }
    // Stripe sends a payment's events again: nothing is credited twice.
    for (const id of paid) site.stripe.succeedPaymentIntent(id);
    await site.stripe.deliverPending();

    const { rows: price } = await site.database.pool.query<{ amountCents: number }>(
      `SELECT "amountCents" FROM "plans" WHERE "id" = 'early-access'`,
    );
    const yearCents = price[0]?.amountCents ?? 0;
    expect(yearCents).toBeGreaterThan(0);
    const figures = await desk(owner);
    expect(figures.totals).toMatchObject({
      signups: 3,
      paidConversions: 2,
      revenueCents: 2 * yearCents,
    });
    expect(figures.posts.find((post) => post.postId === posts.a.id)).toMatchObject({
      signups: 3,
      paidConversions: 0,
      revenueCents: 0,
    });
    expect(figures.posts.find((post) => post.postId === posts.b.id)).toMatchObject({
      signups: 0,
      paidConversions: 2,
      revenueCents: 2 * yearCents,
    });
    expect(figures.sources).toEqual(
      expect.arrayContaining([expect.objectContaining({ source: 'friends', signups: 3 })]),
    );
    // Gifts of the first tier's year: by the tier each gift was bought for.
    expect(figures.tiers).toEqual([
      { slug: 'supporter', name: 'Supporter', paidConversions: 2, revenueCents: 2 * yearCents },
    ]);
    const { rows } = await site.database.pool.query<{ kind: string; source: string }>(
      `SELECT "kind", "source" FROM "analytics_conversions" WHERE "kind" = 'payment'`,
    );
    expect(rows).toEqual([
      { kind: 'payment', source: 'news.ycombinator.com' },
      { kind: 'payment', source: 'news.ycombinator.com' },
    ]);
  });

  it('gives writers their own posts’ views and visitors and no money; editors see it all', async () => {
    await read(reader(61), posts.w.path);
    await read(reader(62), posts.w.path);
    const mine = await desk(writer);
    expect(mine.posts.map((post) => post.postId)).toEqual([posts.w.id]);
    expect(mine.posts[0]).toMatchObject({
      views: 2,
      visitors: 2,
      signups: null,
      paidConversions: null,
      revenueCents: null,
    });
    expect(mine.totals).toEqual({
      views: 2,
      visitors: 2,
      signups: null,
      paidConversions: null,
      revenueCents: null,
    });
    expect(mine.sources.every((source) => source.signups === null)).toBe(true);
    expect(mine.tiers).toBeNull();
    expect(JSON.stringify(mine)).not.toContain('Post A');
    const notTheirs = await site.call(
      writer,
      'GET',
      `/api/desk/analytics/posts/${posts.a.id}?from=${today}&to=${today}`,
    );
    expect(notTheirs.statusCode).toBe(404);
    const theirs = await site.call(
      writer,
      'GET',
      `/api/desk/analytics/posts/${posts.w.id}?from=${today}&to=${today}`,
    );
    expect(theirs.json<DeskPostAnalytics>().totals).toMatchObject({ views: 2, revenueCents: null });
    const all = await desk(editor);
    expect(all.posts.map((post) => post.postId)).toEqual(
      expect.arrayContaining([posts.a.id, posts.b.id, posts.w.id]),
    );
    expect(all.totals.revenueCents).toBeGreaterThan(0);
  });

  it('answers visitors and members with the desk’s 404, and a bad range with a 400', async () => {
    const visitor = await newVisitor(site.app);
    for (const url of [
      `/api/desk/analytics?from=${today}&to=${today}`,
      `/api/desk/analytics/posts/${posts.a.id}?from=${today}&to=${today}`,
    ]) {
      const answer = await site.call(visitor, 'GET', url);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({
        error: { code: 'not_found', message: `No such resource: GET ${url.split('?')[0]}` },
      });
      expect((await site.call(null, 'GET', url)).statusCode).toBe(404);
    }
    for (const [query, message] of [
      ['from=2026-01-02&to=2026-01-01', 'from is after to'],
      ['from=2024-01-01&to=2026-01-01', 'at most 400 days'],
      ['from=2026-02-30&to=2026-03-01', 'not a day'],
      ['from=yesterday&to=2026-03-01', 'YYYY-MM-DD'],
      ['to=2026-03-01', 'from'],
    ] as const) {
      const answer = await site.call(owner, 'GET', `/api/desk/analytics?${query}`);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json<{ error: { message: string } }>().error.message).toContain(message);
    }
  });

  it('rolls finished days up into the same figures, and deletes raw views after 90 days', async () => {
    const pool = site.database.pool;
    // Today's views as they would stand tomorrow: moved to yesterday, and 100 days back.
    const yesterday = utcDay(new Date(Date.now() - 86_400_000));
    const old = utcDay(new Date(Date.now() - 100 * 86_400_000));
    await site.app.analytics.flush();
    const before = await desk(owner);
    await pool.query(`UPDATE "analytics_events" SET "day" = $1, "at" = "at" - interval '1 day'`, [
      yesterday,
    ]);
    await pool.query(
      `INSERT INTO "analytics_events" ("at", "day", "visitor", "path", "postId", "source")
       SELECT $1::date, $1::date, "visitor", "path", "postId", "source" FROM "analytics_events"`,
      [old],
    );
    await pool.query(`UPDATE "analytics_visitors" SET "day" = $1`, [yesterday]);
    await pool.query(
      `INSERT INTO "analytics_visitors"
       SELECT $1::date, "visitor", "source" FROM "analytics_visitors"`,
      [old],
    );
    await pool.query(`UPDATE "analytics_conversions" SET "day" = $1`, [yesterday]);
    await pool.query(`INSERT INTO "analytics_salts" VALUES ($1, 'old')`, [yesterday]);
    const raw = await desk(owner, `from=${yesterday}&to=${yesterday}`);
    expect(raw.totals).toEqual(before.totals);

    const rolled = await site.app.analytics.maintain();
    expect(rolled).toContain(old);
    expect(rolled).toContain(yesterday);
    const { rows: left } = await pool.query<{ day: string; count: string }>(
      `SELECT to_char("day", 'YYYY-MM-DD') AS "day", count(*) FROM "analytics_events" GROUP BY 1`,
    );
    expect(left.map((row) => row.day)).toEqual([yesterday]);
    const { rows: salts } = await pool.query<{ day: string }>(
      `SELECT to_char("day", 'YYYY-MM-DD') AS "day" FROM "analytics_salts"`,
    );
    expect(salts.map((row) => row.day)).toEqual([today]);
    // The raw views of yesterday are gone from the reading: the figures are the rollup's.
    await pool.query(`DELETE FROM "analytics_events"`);
    const fromRollup = await desk(owner, `from=${yesterday}&to=${yesterday}`);
    expect(fromRollup).toEqual(raw);
    const oldDay = await desk(owner, `from=${old}&to=${old}`);
    expect(oldDay.totals).toMatchObject({ views: before.totals.views });
    expect(oldDay.sources).toEqual(before.sources.map((source) => ({ ...source, signups: 0 })));
    // Over whole months (read from the posts' monthly rows) and the days around them.
    const longer = await desk(owner, `from=${old.slice(0, 7)}-01&to=${today}`);
    expect(longer.totals).toMatchObject({
      views: 2 * before.totals.views,
      visitors: 2 * before.totals.visitors,
    });
    for (const post of before.posts) {
      expect(longer.posts.find((each) => each.postId === post.postId)).toMatchObject({
        views: 2 * post.views,
        visitors: 2 * post.visitors,
      });
    }
    // Run again: nothing more is rolled, nothing changes.
    await site.app.analytics.maintain();
    expect(await desk(owner, `from=${yesterday}&to=${yesterday}`)).toEqual(raw);
  });

  it('leaves no reader’s IP address or user agent in a pg_dump of the database', async () => {
    await site.app.analytics.flush();
    const stdout = site.testDatabase.embedded
      ? await everyRowAsText()
      : (
          await promisify(execFile)(
            'pg_dump',
            ['--data-only', '--no-owner', site.testDatabase.url],
            {
              maxBuffer: 256 * 1024 * 1024,
              env: { ...process.env, PGPASSWORD: new URL(site.testDatabase.url).password },
            },
          )
        ).stdout;
    expect(stdout).toContain('analytics_days');
    // Readers who never signed in (the gift buyers paid without an account).
    for (const n of [1, 20, 31, 34, 51, 52, 61, 62, 99]) {
      const { ip, userAgent } = reader(n);
      expect(stdout).not.toContain(ip);
      expect(stdout).not.toContain(userAgent);
      expect(stdout).not.toContain(`Chrome/131.0.${n}.0`);
    }
    // Those who registered: no address either. Their account's list of signed-in browsers keeps
    // its user agent (docs/accounts.md), the analytics nothing.
    for (const n of [41, 42, 43]) expect(stdout).not.toContain(reader(n).ip);
    expect(stdout).toContain('Chrome/131.0.41.0');
  });
});
