import { expect, test } from './fixtures.js';

test('without Stripe keys the site runs and the payment buttons say payments are off', async ({
  page,
}) => {
  await page.goto('/early-access');
  await expect(page.getByRole('heading', { name: 'Coming Soon!' })).toBeVisible();
  await expect(
    page.getByText('Payments are not configured on this site yet.').first(),
  ).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Join/ })
    .click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Payments are not configured' }),
  ).toBeVisible();
});
