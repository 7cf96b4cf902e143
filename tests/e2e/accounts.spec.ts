import type { Page } from '@playwright/test';
import { expect, openPastPaywallDelay, test, uniqueEmail } from './fixtures.js';
import { deliverWebhook } from './support/deliver-webhook.js';

test.use({ payments: true, siteEnv: { PAYWALL_DELAY_MS: '1500' } });

const PASSWORD = 'my long enough passphrase';
const paywall = (page: Page) => page.getByRole('dialog', { name: 'Get Full Access' });

async function register(page: Page, email: string) {
  await page.goto('/register');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/account$/);
}

test('register, pay, sign out, sign in again: the membership comes back and the paywall stays away', async ({
  page,
  pay,
}) => {
  const email = uniqueEmail();
  await register(page, email);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page.getByText('You are not a member yet.')).toBeVisible();

  // Paid (Stripe tells the site through its webhook).
  const me = await (await page.request.get('/api/me')).json();
  await pay(me.user.id);
  await page.reload();
  await expect(page.getByText(/^Active member/)).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await (await page.request.get('/api/me')).json()).user.isSubscribed).toBe(false);
  await expect(paywall(page)).toBeVisible({ timeout: 5_000 });
  await page.keyboard.press('Escape');

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(/^Active member/)).toBeVisible();

  await openPastPaywallDelay(page, '/wealth', 1_500);
  await expect(paywall(page)).toBeHidden();
});

test('the account page lists each payment, what it covers, and a refund', async ({
  page,
  stripe,
  site,
  registered,
  pay,
}) => {
  if (!stripe) throw new Error('payments are on in this file');
  const first = await pay(registered.id);
  await pay(registered.id);
  stripe.refund(first.id);
  const refunded = stripe.event('charge.refunded', stripe.get(String(first.latest_charge)));
  expect(await deliverWebhook(page.request, site.url, stripe, refunded)).toBe(200);

  await page.goto('/account');
  const payments = page.getByRole('list').filter({ hasText: 'One year, paid once' });
  await expect(payments.getByRole('listitem')).toHaveCount(2);
  const withState = (state: string) =>
    payments.getByRole('listitem').filter({ has: page.getByText(state, { exact: true }) });
  await expect(withState('Refunded')).toContainText('Covers no time');
  await expect(withState('Paid')).toContainText(/\$12\.00 on .*Covers .* to /);
  await expect(page.getByText(/^Active member \(one year, ends on/)).toBeVisible();
});

test.describe('mistakes', () => {
  // The server's 400 and 401 answers are the point here; Chromium logs each as a console error.
  test.use({ expectedConsoleErrors: [/status of 40[01]/] });

  test('registration says what is wrong with the email and the password', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('Email').fill('not an email');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(
      page.getByText('Enter a valid email address, like name@example.com.'),
    ).toBeVisible();
    await expect(page.getByText('Use at least 10 characters.')).toBeVisible();

    await page.getByLabel('Email').fill(uniqueEmail());
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByText(/one of the most common ones/)).toBeVisible();
  });

  test('a wrong password gets a clear message', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(uniqueEmail());
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
  });
});
