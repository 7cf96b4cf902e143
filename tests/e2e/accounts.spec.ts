import type { Page } from '@playwright/test';
import { expect, openPastPaywallDelay, test, uniqueEmail } from './fixtures.js';
import { deliverWebhook } from './support/deliver-webhook.js';
import { tokenFromMail, waitForMail } from '#test/registration';
import type { SmtpCapture } from '#test/smtp-capture';

const PASSWORD = 'my long enough passphrase';
const paywall = (page: Page) => page.getByRole('dialog', { name: 'Get Full Access' });

/** Asks to register through the form, then opens the link the site mails. */
async function openRegistrationLink(page: Page, mailbox: SmtpCapture, email: string) {
  await page.goto('/register');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();
  const mail = await waitForMail(mailbox, email);
  await page.goto(`/register/confirm#token=${tokenFromMail(mail.text, '/register/confirm')}`);
  await expect(page.getByText(`Choose a password for ${email}`)).toBeVisible();
}

/** Registers: the form, then the password chosen on the page the mailed link opens. */
async function register(page: Page, mailbox: SmtpCapture, email: string) {
  await openRegistrationLink(page, mailbox, email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page).toHaveURL(/\/account$/);
}

test('register, pay, sign out, sign in again: the membership comes back and the paywall stays away', async ({
  page,
  pay,
  mailbox,
}) => {
  const email = uniqueEmail();
  await register(page, mailbox, email);
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
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
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

test('the sign-in page opens without an error when the browser cannot offer passkeys here', async ({
  page,
}) => {
  // This site is served from 127.0.0.1, an address no passkey can belong to: the browser refuses
  // the page's autofill request for passkeys at once. Nobody asked for a passkey, so nothing says so.
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test.describe('mistakes', () => {
  // The server's 400 and 401 answers are the point here; Chromium logs each as a console error.
  test.use({ expectedConsoleErrors: [/status of 40[01]/] });

  test('registration says what is wrong with the email, and the mailed link’s page with the password', async ({
    page,
    mailbox,
  }) => {
    await page.goto('/register');
    await page.getByLabel('Email').fill('not an email');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(
      page.getByText('Enter a valid email address, like name@example.com.'),
    ).toBeVisible();

    await openRegistrationLink(page, mailbox, uniqueEmail());
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect(page.getByText('Use at least 10 characters.')).toBeVisible();
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect(page.getByText(/That password is too easy to guess\./)).toBeVisible();
    // The link is not used up: a good password finishes.
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect(page).toHaveURL(/\/account$/);
  });

  test('a wrong password gets a clear message', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(uniqueEmail());
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
  });
});

test('the account page lists the signed-in browsers and signs another one out', async ({
  page,
  browser,
  registered,
}) => {
  // The same account signed in on a second browser (a phone, say).
  const phone = await browser.newContext({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  });
  const phonePage = await phone.newPage();
  await phonePage.goto('/login');
  await phonePage.getByLabel('Email').fill(registered.email);
  await phonePage.getByLabel('Password').fill(registered.password);
  await phonePage.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(phonePage).toHaveURL(/\/account$/);

  await page.goto('/account');
  const browsers = page.getByRole('region', { name: 'Signed-in browsers' });
  await expect(browsers.getByRole('listitem')).toHaveCount(2);
  await expect(browsers.getByText('(this browser)')).toBeVisible();
  const phoneRow = browsers.getByRole('listitem').filter({ hasText: 'Safari 17 on iPhone' });
  await phoneRow.getByRole('button', { name: 'Sign out' }).click();
  await expect(browsers.getByRole('listitem')).toHaveCount(1);

  // The phone is signed out: its next page load shows a stranger.
  await phonePage.reload();
  await expect(
    phonePage.getByText('Create an account, or sign in to the one you have.'),
  ).toBeVisible();
  await phone.close();
});

test('a new email counts once the link mailed to it is confirmed, and the old address is told', async ({
  page,
  registered,
  mailbox,
}) => {
  const newEmail = uniqueEmail();
  await page.goto('/account');
  const form = page.getByRole('form', { name: 'Change your email' });
  await form.getByLabel('New email').fill(newEmail);
  // Registered by the mailed link moments ago: that sign-in stands in for the password.
  await expect(form.getByLabel('Current password')).toHaveCount(0);
  await form.getByRole('button', { name: 'Change email' }).click();
  await expect(form.getByRole('status')).toHaveText(
    `We sent a confirmation link to ${newEmail}. Your email changes when you open it and press Confirm.`,
  );
  // Nothing has changed yet.
  await page.reload();
  await expect(page.getByText(`Signed in as ${registered.email}`)).toBeVisible();

  // The first mail to the address finished its registration; the second tells of the change.
  await expect.poll(() => mailbox.mailsTo(registered.email).length).toBe(2);
  const notice = mailbox.mailsTo(registered.email)[1];
  expect(notice?.text).toContain(newEmail);
  await expect.poll(() => mailbox.mailsTo(newEmail).length).toBe(1);
  const [confirmation] = mailbox.mailsTo(newEmail);
  const link = /https?:\/\/\S+\/confirm-email#token=\S+/.exec(confirmation?.text ?? '')?.[0];
  if (!link) throw new Error(`no confirmation link in: ${confirmation?.text}`);
  const { pathname, hash } = new URL(link);

  await page.goto(`${pathname}${hash}`);
  await expect(page).toHaveURL(/\/confirm-email$/); // the token leaves the address bar
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status')).toContainText(newEmail);
  await page.getByRole('link', { name: 'Go to your account' }).click();
  await expect(page.getByText(`Signed in as ${newEmail}`)).toBeVisible();
});
