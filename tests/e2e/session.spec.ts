import { expect, test } from './fixtures.js';
import { visit } from './support/visit.js';

test('a first visit starts an anonymous session that /api/me then recognises', async ({
  page,
  context,
}) => {
  const user = await visit(page, '/');
  expect(user).toMatchObject({ email: null, isSubscribed: false, membership: null });

  const cookie = (await context.cookies()).find((c) => c.name === 'cohort_session');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

  const me = await page.request.get('/api/me');
  expect(me.status()).toBe(200);
  expect((await me.json()).user.id).toBe(user.id);

  // Coming back keeps the same visitor.
  expect((await visit(page, '/')).id).toBe(user.id);
});

test.describe('when the server cannot be reached at first', () => {
  test.use({ expectedConsoleErrors: [/ERR_CONNECTION_REFUSED/] });

  test('the site stays readable while the server cannot start a session, and retries until it can', async ({
    page,
    context,
  }) => {
    let failures = 0;
    await page.route('**/api/session', async (route) => {
      if (failures < 2) {
        failures += 1;
        await route.abort('connectionrefused');
      } else {
        await route.continue();
      }
    });
    const started = page.waitForResponse(
      (response) => response.url().endsWith('/api/session') && response.status() === 200,
      { timeout: 15_000 },
    );
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await started;
    expect(failures).toBe(2);
    expect((await context.cookies()).some((c) => c.name === 'cohort_session')).toBe(true);
  });
});
