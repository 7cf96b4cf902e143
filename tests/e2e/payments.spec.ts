import type { Page } from '@playwright/test';
import type { FakeStripe } from '#test/fake-stripe';
import { expect, openPastPaywallDelay, test } from './fixtures.js';
import { deliverPaymentSucceeded, paymentIntentWith } from './support/deliver-webhook.js';
import { visit } from './support/visit.js';

const paywall = (page: Page) => page.getByRole('dialog', { name: 'Get Full Access' });

async function currentUser(page: Page) {
  const response = await page.request.get('/api/me');
  return (await response.json()).user as { id: string; isSubscribed: boolean };
}

function requireStripe(stripe: FakeStripe | null): FakeStripe {
  if (!stripe) throw new Error('payments are on in this file');
  return stripe;
}

test('the paywall appears after the configured delay, dims the page, and closes', async ({
  page,
}) => {
  await page.goto('/health');
  await expect(paywall(page)).toBeVisible({ timeout: 5_000 });
  // A modal dialog: the rest of the page is inert behind its backdrop.
  expect(await paywall(page).evaluate((dialog) => dialog.matches(':modal'))).toBe(true);
  await expect(paywall(page).getByRole('button', { name: /Join Now/ })).toBeVisible();

  await paywall(page).getByRole('button', { name: 'Close' }).click();
  await expect(paywall(page)).toBeHidden();

  await page.reload();
  await expect(paywall(page)).toBeVisible({ timeout: 5_000 });
  await page.keyboard.press('Escape');
  await expect(paywall(page)).toBeHidden();
});

test('the paywall’s Join Now offers the plans over it, the monthly one priced by the year too', async ({
  page,
}) => {
  await page.goto('/health');
  await expect(paywall(page)).toBeVisible({ timeout: 5_000 });
  await expect(paywall(page)).toContainText('Or $1 a month: you choose next.');
  await paywall(page)
    .getByRole('button', { name: /Join Now/ })
    .click();
  const chooser = page.getByRole('dialog', { name: 'Join Cohort' });
  await expect(chooser).toBeVisible();
  expect(await chooser.evaluate((dialog) => dialog.matches(':modal'))).toBe(true);
  await expect(chooser.getByRole('button', { name: /^Monthly: \$1 a month/ })).toBeVisible();
  await expect(chooser).toContainText('$12 a year. Cancel any time.');
  await expect(chooser.getByRole('link', { name: 'Once: $12 for one year' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(chooser).toBeHidden();
  await expect(paywall(page)).toBeVisible();
});

test('the paywall never opens over the plans a visitor is already choosing from', async ({
  page,
}) => {
  await page.clock.install();
  const config = page.waitForResponse((r) => r.url().endsWith('/api/config') && r.ok());
  await visit(page, '/');
  await config;
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Join/ })
    .click();
  const chooser = page.getByRole('dialog', { name: 'Join Cohort' });
  await expect(chooser).toBeVisible();
  // The paywall's time comes while the visitor reads the plans; its code would load then.
  await page.clock.runFor(2_500);
  await page.waitForLoadState('networkidle');
  await expect(paywall(page)).toHaveCount(0);
  expect(await chooser.evaluate((dialog) => dialog.matches(':modal'))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(chooser).toBeHidden();
  // Counted as shown: it does not follow once the plans are closed.
  await page.clock.runFor(2_500);
  await page.waitForLoadState('networkidle');
  await expect(paywall(page)).toHaveCount(0);
});

test('a member never sees the paywall, and the navbar offers no Join', async ({ page, member }) => {
  await openPastPaywallDelay(page, '/health', 1_500);
  expect((await currentUser(page)).id).toBe(member.id);
  await expect(paywall(page)).toBeHidden();
  await expect(page.getByRole('button', { name: 'Join', exact: true })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Account' })).toBeVisible();
});

test('a forged ?stripe_success grants nothing', async ({ page }) => {
  await page.goto('/?stripe_success=true');
  await expect(paywall(page)).toBeVisible({ timeout: 5_000 });
  expect((await currentUser(page)).isSubscribed).toBe(false);
});

test('the early-access form pays, shows "Payment succeeded!" on return, and the paywall stays away', async ({
  page,
  stripe,
  site,
}) => {
  const fake = requireStripe(stripe);
  await visit(page, '/early-access');
  await expect(page.getByRole('heading', { name: 'Coming Soon!' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What members get' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Privacy policy' })).toBeVisible();
  const payNow = page.getByRole('button', { name: 'Pay now' });
  await expect(payNow).toBeEnabled();

  await payNow.click();
  await expect(page).toHaveURL(/payment_intent_client_secret=/);
  await expect(page.getByText('Payment succeeded!')).toBeVisible();

  // Stripe's webhook is what makes the membership.
  const user = await currentUser(page);
  const intent = paymentIntentWith(fake, 'userId', user.id);
  if (!intent) throw new Error('no PaymentIntent for this visitor');
  expect(await deliverPaymentSucceeded(page.request, site.url, fake, intent)).toBe(200);
  await expect(page.getByText('You are a member. Thank you for supporting Cohort!')).toBeVisible({
    timeout: 10_000,
  });

  await openPastPaywallDelay(page, '/health', 1_500);
  await expect(paywall(page)).toBeHidden();
});

test.describe('a declined card', () => {
  test.use({ expectedConsoleErrors: [/status of 402/] });

  test('shows Stripe’s message and lets the visitor try again', async ({ page, stripe }) => {
    const fake = requireStripe(stripe);
    await visit(page, '/early-access');
    fake.declineNextCard = true;
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    await expect(page.getByRole('button', { name: 'Pay now' })).toBeEnabled();
  });
});
