import { describe, expect, it } from 'vitest';
import { buildMember } from '#test/factories';
import { useTwoServers } from '#test/with-site';

// Two app servers on one database: redirects an owner saves through one are followed by the
// other, which reads them again when the content generation tells it of the change.

describe('the publisher’s redirects on two app servers', () => {
  const [a, b] = useTwoServers({ built: true, env: { STAFF_EMAILS: 'owner@example.com' } });

  it('follows on one server, within 2 seconds, what was saved through the other', async (context) => {
    if (a.testDatabase.embedded) context.skip('the embedded test database serves one app');
    const { cookie } = await buildMember(a, { role: 'owner' });
    expect((await b.app.inject({ url: '/from-a' })).statusCode).toBe(404);

    const saved = await a.app.inject({
      method: 'PUT',
      url: '/api/desk/redirects',
      headers: { cookie },
      payload: { format: 'yaml', file: '302:\n  /from-a/: /to-b\n' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // The server that saved them follows them in its answer's wake.
    expect((await a.app.inject({ url: '/from-a' })).headers.location).toBe('/to-b');

    const started = performance.now();
    while ((await b.app.inject({ url: '/from-a' })).statusCode !== 302) {
      if (performance.now() - started > 5_000) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(performance.now() - started).toBeLessThan(2_000);
    expect((await b.app.inject({ url: '/from-a' })).headers.location).toBe('/to-b');
  });
});
