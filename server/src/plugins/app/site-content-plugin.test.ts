import { beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildPost, type Member } from '#test/factories';
import { useTwoServers, type Site } from '#test/with-site';
import { POLL_MS } from './site-content-plugin.js';

// A server that cannot LISTEN (behind PgBouncer's transaction pooling) learns of a change made on
// another server by asking for the content generation: every kind of change, not only posts.

const OWNER = 'owner@example.com';

/** Connects as an operator's DATABASE_URL does behind PgBouncer: no LISTEN, so it polls. */
const asBehindPgBouncer = async (url: string) => {
  const pooled = new URL(url);
  pooled.searchParams.set('pgbouncer', 'true');
  return pooled.toString();
};

describe('a change made on one app server, on a second that polls', () => {
  const env = { STAFF_EMAILS: OWNER };
  const [listening, polling] = useTwoServers({ env }, { env, connectThrough: asBehindPgBouncer });
  let owner: Member;
  beforeAll(async () => {
    owner = await buildMember(listening, { email: OWNER });
  });

  const call = (t: Site, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: owner.cookie },
      ...(payload !== undefined && { payload }),
    });
  const topicOn = async (t: Site, slug: string) => {
    const listed = await call(t, 'GET', '/api/desk/topics');
    expect(listed.statusCode, listed.body).toBe(200);
    return (listed.json().topics as { slug: string; description: string }[]).find(
      (topic) => topic.slug === slug,
    );
  };
  /** Milliseconds until `ready` holds, from now (gives up after 5 s). */
  const until = async (ready: () => Promise<boolean>) => {
    const started = performance.now();
    while (!(await ready())) {
      if (performance.now() - started > 5_000) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return performance.now() - started;
  };

  it('shows a post published just after it started', async (context) => {
    if (listening.testDatabase.embedded) context.skip('the embedded test database serves one app');
    await buildPost(listening, { by: owner, title: 'Saving for a Deposit', tags: ['Deposits'] });

    const took = await until(async () => (await topicOn(polling, 'deposits')) !== undefined);
    expect(await topicOn(polling, 'deposits')).toMatchObject({ count: 1 });
    expect(took).toBeLessThan(POLL_MS + 1_000);
  });

  it('shows a topic’s new description within the polling interval', async (context) => {
    if (listening.testDatabase.embedded) context.skip('the embedded test database serves one app');
    expect(await topicOn(polling, 'deposits')).toMatchObject({ written: false });
    const description = 'What to save, and where, before you buy.';
    const described = await call(listening, 'PUT', '/api/desk/topics/deposits', { description });
    expect(described.statusCode, described.body).toBe(200);
    expect(described.json().topic).toMatchObject({ description, written: true });

    const took = await until(
      async () => (await topicOn(polling, 'deposits'))?.description === description,
    );
    expect(await topicOn(polling, 'deposits')).toMatchObject({ description, written: true });
    // One polling interval, and the read it starts.
    expect(took).toBeLessThan(POLL_MS + 1_000);
  });
});
