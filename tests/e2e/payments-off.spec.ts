import type { Page } from '@playwright/test';
import { expect, openPastPaywallDelay, test } from './fixtures.js';

const navbarHeight = async (page: Page) =>
  (await page.getByTestId('navbar').boundingBox())?.height ?? Number.NaN;

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

for (const width of [1280, 390]) {
  test(`pressing Join says payments are off without moving the navbar (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const config = page.waitForResponse((response) => response.url().endsWith('/api/config'));
    await page.goto('/health');
    await config;
    const menuToggle = page.getByRole('button', { name: 'Open menu' });
    if (width < 1200) await menuToggle.click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    const join = nav.getByRole('button', { name: /^Join/ });
    await expect(join).toBeVisible();
    const before = await navbarHeight(page);
    const joinBefore = await join.boundingBox();

    await join.click();
    const message = page.getByRole('alert').filter({ hasText: 'Payments are not configured' });
    await expect(message).toBeVisible();
    expect(await navbarHeight(page)).toBe(before);
    expect(await join.boundingBox()).toEqual(joinBefore);
    // The message sits below the button, inside the window, and goes when dismissed.
    const box = await message.boundingBox();
    expect(box && joinBefore && box.y >= joinBefore.y + joinBefore.height).toBe(true);
    expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
    await message.getByRole('button', { name: 'Dismiss' }).click();
    await expect(message).toBeHidden();
  });
}

test('with payments off the paywall never appears', async ({ page }) => {
  await openPastPaywallDelay(page, '/health', 1_500);
  await page.clock.runFor(60_000);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Health');
  await expect(page.getByRole('dialog', { name: 'Get Full Access' })).toBeHidden();
  await expect(page.getByTestId('paywall')).toHaveCount(0);
});
