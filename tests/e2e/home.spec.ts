import { expect, test } from './fixtures.js';

test('the home page renders the pitch and the navbar in Chromium', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Cohort');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Cohort' })).toHaveAttribute('href', '/');
});

test.describe('an unknown address', () => {
  // The server answers it with a real 404, which Chromium reports as a console error.
  test.use({ expectedConsoleErrors: [/status of 404/] });

  test('shows the 404 page, answered with a 404', async ({ page }) => {
    const response = await page.goto('/pk');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page).toHaveTitle('Page not found · Cohort');
  });
});

test('/index goes to the home page', async ({ page }) => {
  await page.goto('/index');
  await expect(page).toHaveURL(/\/$/);
});
