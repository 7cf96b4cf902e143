import { expect, test } from './fixtures.js';

test('the home page renders the pitch and the navbar in Chromium', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Cohort');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Cohort' })).toHaveAttribute('href', '/');
});

test('an unknown address shows the 404 page', async ({ page }) => {
  await page.goto('/pk');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle('Page not found · Cohort');
});

test('/index goes to the home page', async ({ page }) => {
  await page.goto('/index');
  await expect(page).toHaveURL(/\/$/);
});
