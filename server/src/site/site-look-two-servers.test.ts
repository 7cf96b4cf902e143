import { describe, expect, it } from 'vitest';
import { buildMember } from '#test/factories';
import { useTwoServers } from '#test/with-site';

// Two app servers on one database: the publication's settings changed through one are on the
// other's next page, feed and manifest, with no restart and no build.

const OWNER = 'owner@example.com';

describe('the publication’s settings on two app servers', () => {
  const [a, b] = useTwoServers({
    built: true,
    env: { STAFF_EMAILS: OWNER, SITE_NAME: 'Started As This' },
  });

  it('shows a rename through one server on the other’s next page within 2 seconds', async (context) => {
    if (a.testDatabase.embedded) context.skip('the embedded test database serves one app');
    const { cookie } = await buildMember(a, { role: 'owner' });
    expect((await b.app.inject({ url: '/' })).body).toContain('<title>Started As This');

    const changed = await a.app.inject({
      method: 'PATCH',
      url: '/api/desk/settings',
      headers: { cookie },
      payload: { title: 'Renamed On A', language: 'de', accentColor: '#7a1f5c' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const started = performance.now();
    while (!(await b.app.inject({ url: '/' })).body.includes('<title>Renamed On A')) {
      if (performance.now() - started > 5_000) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(performance.now() - started).toBeLessThan(2_000);

    const page = (await b.app.inject({ url: '/' })).body;
    expect(/<html\b[^>]*>/.exec(page)?.[0]).toContain(' lang="de"');
    expect(page).toContain('--accent:#7a1f5c;');
    expect(page).not.toContain('Started As This');
    expect((await b.app.inject({ url: '/rss.xml' })).body).toContain('<title>Renamed On A</title>');
    expect((await b.app.inject({ url: '/manifest.webmanifest' })).json()).toMatchObject({
      name: 'Renamed On A',
      lang: 'de',
      theme_color: '#7a1f5c',
    });
    expect((await b.app.inject({ url: '/api/config' })).json().siteName).toBe('Renamed On A');
  });
});
