import { expect, openPastPaywallDelay, signInAs, STAFF, test } from './fixtures.js';

test('without Stripe keys the site runs and offers nothing that cannot be bought', async ({
  page,
}) => {
  await page.goto('/early-access');
  await expect(page.getByRole('heading', { name: 'Coming Soon!' })).toBeVisible();
  await expect(
    page.getByText('Payments are not configured on this site yet.').first(),
  ).toBeVisible();
  // No price to pay, no gift or pay-it-forward offer, no Join anywhere.
  await expect(page.getByText(/for your first year/)).toBeHidden();
  await expect(page.getByRole('link', { name: 'give a year to someone else' })).toBeHidden();
  await expect(page.getByRole('button', { name: /^Join/ })).toHaveCount(0);
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Member perks' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Give a year' })).toBeHidden();
  await expect(footer.getByRole('link', { name: 'Pay it forward' })).toBeHidden();
  // The giving pages, reached by their address, say why there is nothing to fill in.
  await page.goto('/gift');
  await expect(page.getByText('Payments are not configured on this site yet.')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Join/ })).toHaveCount(0);
});

for (const width of [1280, 390]) {
  test(`the navbar has no Join from its first paint, before the configuration arrives (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    // The configuration never arrives: the page's own HTML says payments are off.
    await page.route('**/api/config', () => {});
    await page.goto('/health');
    await expect(page.locator('html')).toHaveAttribute('data-payments', 'off');
    if (width < 1200) await page.getByRole('button', { name: 'Open menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Sign in' })).toBeVisible();
    await expect(nav.getByRole('button', { name: /^Join/ })).toBeHidden();
  });

  test(`the desk's Plans say payments are off and what to set (${width} px)`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await signInAs(page, mailbox, { email: STAFF.owner, password: 'plans owner passphrase' });
    await page.goto('/desk/plans');
    await expect(page.getByRole('heading', { level: 1, name: 'Plans' })).toBeVisible();
    const notice = page.getByRole('status').filter({ hasText: 'Payments are off' });
    await expect(notice).toBeVisible();
    for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET']) {
      await expect(notice).toContainText(key);
    }
    // No plan claims to be on sale; each keeps its switch for the day keys are set.
    await expect(page.getByText('on sale ·', { exact: false })).toHaveCount(0);
    await expect(page.getByText('not on sale: payments are off').first()).toBeVisible();
    await expect(page.getByLabel('On sale once payments are on').first()).toBeVisible();
    await page.screenshot({
      path: testInfo.outputPath(`desk-plans-off-${width}.png`),
      fullPage: true,
    });
  });
}

test('with payments off the paywall never appears', async ({ page }) => {
  await openPastPaywallDelay(page, '/health', 1_500);
  await page.clock.runFor(60_000);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Health');
  await expect(page.getByRole('dialog', { name: 'Get Full Access' })).toBeHidden();
  await expect(page.getByTestId('paywall')).toHaveCount(0);
});
