import { describe, expect, it } from 'vitest';
import { buildMember } from '#test/factories';
import { useTwoServers } from '#test/with-site';
import { ARTICLE, OWNER } from '#test/desk-posts-site';

// Two app servers on one database: what the desk changes through one is served by the other.

describe('two app servers on one database', () => {
  const [a, b] = useTwoServers({ built: true, env: { STAFF_EMAILS: OWNER } });

  it('serves a post published through one from the other within 2 seconds, and its removal too', async (context) => {
    if (a.testDatabase.embedded) context.skip('the embedded test database serves one app');
    const { cookie } = await buildMember(a, { role: 'owner' });
    const call = (method: 'POST' | 'PATCH', url: string, payload: object) =>
      a.app.inject({ method, url, headers: { cookie }, payload });

    const { post } = (
      await call('POST', '/api/desk/posts', { ...ARTICLE, slug: 'on-both' })
    ).json();
    expect((await b.app.inject({ url: post.path })).statusCode).toBe(404);

    /** How long until B answers `status` at `path`, from now. */
    const untilB = async (path: string, status: number) => {
      const started = performance.now();
      while ((await b.app.inject({ url: path })).statusCode !== status) {
        if (performance.now() - started > 5_000) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return performance.now() - started;
    };
    const publish = await call('POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(publish.statusCode).toBe(200);
    expect(await untilB(post.path, 200)).toBeLessThan(2_000);
    expect((await b.app.inject({ url: '/rss.xml' })).body).toContain(post.path);

    const edited = await call('PATCH', `/api/desk/posts/${post.id}`, {
      version: publish.json().post.version,
      title: 'Edited on A',
    });
    expect(edited.statusCode).toBe(200);
    const started = performance.now();
    while (!(await b.app.inject({ url: post.path })).body.includes('Edited on A')) {
      if (performance.now() - started > 5_000) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(performance.now() - started).toBeLessThan(2_000);

    const down = await call('POST', `/api/desk/posts/${post.id}/unpublish`, {
      version: edited.json().post.version,
    });
    expect(down.statusCode).toBe(200);
    expect(await untilB(post.path, 410)).toBeLessThan(2_000);
  });
});
