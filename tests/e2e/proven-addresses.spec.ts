import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Page } from '@playwright/test';
import { getPasswordHash } from '../../server/src/accounts/passwords.js';
import { tokenFromMail, waitForMail } from '#test/registration';
import type { SmtpCapture } from '#test/smtp-capture';
import { expect, STAFF as SITE_STAFF, test, uniqueEmail } from './fixtures.js';
import { visit } from './support/visit.js';

// Proven addresses (docs/decisions/0014) in the browser: signing in with a link or a code mailed to
// the address, what /account says of each browser, and staff whose address is not proven yet.

const STAFF = SITE_STAFF.oldStaff;
const PASSWORD = 'my long enough passphrase';

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
];

/** Presses "Email me a sign-in link" on /login and answers the mail's link path and code. */
async function askForSignInMail(page: Page, mailbox: SmtpCapture, email: string) {
  const before = mailbox.mailsTo(email).length;
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();
  const mail = await waitForMail(mailbox, email, before + 1);
  return {
    link: `/sign-in/link#token=${tokenFromMail(mail.text, '/sign-in/link')}`,
    code: /asked for it: (\d{6})/.exec(mail.text)?.[1] ?? '',
  };
}

for (const { name, width, height } of WIDTHS) {
  test(`signs in with a mailed link that a scanner cannot use up (${name})`, async ({
    page,
    mailbox,
    pay,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    // A visitor who paid on this device, without an account: the first sign-in makes one.
    await visit(page, '/');
    const visitor = (await (await page.request.get('/api/me')).json()).user;
    await pay(visitor.id);
    const email = uniqueEmail();
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Email me a sign-in link' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`login-${name}.png`), fullPage: true });
    const { link } = await askForSignInMail(page, mailbox, email);
    await page.screenshot({ path: testInfo.outputPath(`login-sent-${name}.png`), fullPage: true });

    // A mail scanner fetches the link: a page, and nobody is signed in by it.
    const scanner = await page.context().browser()?.newContext();
    if (!scanner) throw new Error('no browser');
    const scanned = await scanner.request.get(new URL(link, page.url()).toString());
    expect(scanned.status()).toBe(200);
    expect((await scanner.cookies()).filter((c) => c.name === 'cohort_session')).toEqual([]);
    await scanner.close();

    await page.goto(link);
    await expect(page).toHaveURL(/\/sign-in\/link$/); // the token leaves the address bar
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    // The page names the account; this browser asked, so its membership needs no question.
    await expect(page.getByText(`sign in as ${email}`)).toBeVisible();
    await expect(page.getByRole('checkbox')).toHaveCount(0);
    await page.screenshot({
      path: testInfo.outputPath(`sign-in-link-${name}.png`),
      fullPage: true,
    });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    // What this visitor paid for came along.
    await expect(page.getByText(/^Active member/)).toBeVisible();
    const browsers = page.getByRole('region', { name: 'Signed-in browsers' });
    await expect(browsers.getByText(/with a link from an email/)).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`account-${name}.png`), fullPage: true });
  });
}

for (const { name, width, height } of WIDTHS) {
  test(`a link someone else asked for names its address and asks before this browser's membership moves (${name})`, async ({
    page,
    browser,
    site,
    mailbox,
    pay,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    const visitor = await visit(page, '/');
    await pay(visitor.id);
    // Someone else asks for a sign-in link to an address of theirs, and sends it here.
    const theirs = uniqueEmail();
    const stranger = await browser.newContext({ baseURL: site.url });
    await stranger.request.post('/api/session');
    await stranger.request.post('/api/auth/email-link', { data: { email: theirs } });
    await stranger.close();
    const mail = await waitForMail(mailbox, theirs);

    await page.goto(`/sign-in/link#token=${tokenFromMail(mail.text, '/sign-in/link')}`);
    await expect(page.getByText(`sign in as ${theirs}`)).toBeVisible();
    const move = page.getByRole('checkbox', { name: /Move this browser’s membership/ });
    await expect(move).not.toBeChecked();
    const signIn = page.getByRole('button', { name: 'Sign in' });
    await expect(signIn).toBeDisabled();
    await page.screenshot({
      path: testInfo.outputPath(`sign-in-link-ask-${name}.png`),
      fullPage: true,
    });
    // Not their address: they leave, and the membership is still this browser's.
    await page.goto('/account');
    await expect(page.getByText(/^Your membership lives on this device only/)).toBeVisible();
  });

  test(`a registration's link asks the address's owner for the password (${name})`, async ({
    page,
    browser,
    site,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    // Someone else registers this address with a password of their choosing.
    const email = uniqueEmail();
    const stranger = await browser.newContext({ baseURL: site.url });
    await stranger.request.post('/api/session');
    await stranger.request.post('/api/auth/register', {
      data: { email, password: 'a stranger’s own passphrase' },
    });
    const mail = await waitForMail(mailbox, email);

    // The owner opens the mail here: the page names the address and asks for a password.
    await visit(page, '/');
    await page.goto(`/register/confirm#token=${tokenFromMail(mail.text, '/register/confirm')}`);
    await expect(page.getByText(`Choose a password for ${email}`)).toBeVisible();
    await page.screenshot({
      path: testInfo.outputPath(`register-confirm-${name}.png`),
      fullPage: true,
    });
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`account-new-${name}.png`), fullPage: true });

    // The stranger's password opens nothing; the owner's does.
    const login = (password: string) =>
      stranger.request.post('/api/auth/login', { data: { email, password } });
    expect((await login('a stranger’s own passphrase')).status()).toBe(401);
    expect((await login(PASSWORD)).status()).toBe(200);
    await stranger.close();
  });
}

test.describe('a used link', () => {
  // The server's 410 for the used link is the point; Chromium logs it as a console error.
  test.use({ expectedConsoleErrors: [/status of 410/] });

  test('works once: opened again, it says so and signs nobody in', async ({ page, mailbox }) => {
    const email = uniqueEmail();
    const { link } = await askForSignInMail(page, mailbox, email);
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/account$/);
    // The account page has finished asking for its passkeys: signing out under that request would
    // answer it 403 (and the browser would log it).
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/$/);

    // The page says so as it opens, with no button to press.
    await page.goto(link);
    await expect(page.getByRole('alert')).toContainText('used already or has expired');
    await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
    expect((await (await page.request.get('/api/me')).json()).user.email).toBeNull();
  });
});

test('signs in with the code typed where it was asked for, and /account says so', async ({
  page,
  mailbox,
  registered,
}) => {
  // Another device: no cookie of the registered browser.
  await page.context().clearCookies();
  const { code } = await askForSignInMail(page, mailbox, registered.email);
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Sign in with the code' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(`Signed in as ${registered.email}`)).toBeVisible();
  const browsers = page.getByRole('region', { name: 'Signed-in browsers' });
  await expect(browsers.getByText(/with a code from an email/)).toBeVisible();
});

test('an account made by a link is told to sign in again after 12 hours, then sets its first password', async ({
  page,
  site,
  mailbox,
}, testInfo) => {
  const email = uniqueEmail();
  await page.goto((await askForSignInMail(page, mailbox, email)).link);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/account$/);
  // That sign-in was 13 hours ago.
  const pool = new pg.Pool({ connectionString: site.databaseUrl, max: 1 });
  try {
    await pool.query(
      `UPDATE sessions SET "signedInAt" = now() - interval '13 hours'
       WHERE "userId" = (SELECT id FROM users WHERE email = $1)`,
      [email],
    );
  } finally {
    await pool.end();
  }
  await page.reload();
  await expect(page.getByText(/you signed in more than 12 hours ago/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change email' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Set a password' })).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath('account-sign-in-again.png'), fullPage: true });

  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'We sent a sign-in link' }),
  ).toBeVisible();
  const mail = await waitForMail(mailbox, email, 2);
  await page.goto(`/sign-in/link#token=${tokenFromMail(mail.text, '/sign-in/link')}`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/account$/);

  // A fresh link sign-in: no current password to type (there is none).
  const form = page.getByRole('form', { name: 'Set a password' });
  await expect(form.getByLabel('Current password')).toHaveCount(0);
  await form.getByLabel('New password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Set a password' }).click();
  const changed = page.getByRole('form', { name: 'Change your password' });
  await expect(changed.getByRole('status')).toHaveText(
    'Your password is saved. Other devices are signed out.',
  );
  expect(
    (await page.request.post('/api/auth/login', { data: { email, password: PASSWORD } })).status(),
  ).toBe(200);
});

test.describe('an address from before proven addresses', () => {
  // /account asks for the newsletter choice, which an unproven address is refused (403).
  test.use({ expectedConsoleErrors: [/status of 403/] });

  test('staff whose address is not proven get "Verify your address", then the desk once they used the link', async ({
    page,
    site,
    mailbox,
  }) => {
    // An account from before addresses were proven, listed in STAFF_EMAILS: its password still
    // signs in.
    const pool = new pg.Pool({ connectionString: site.databaseUrl, max: 1 });
    try {
      await pool.query(
        `INSERT INTO users (id, email, "passwordHash", "sessionVersion", "updatedAt")
         VALUES ($1, $2, $3, 1, now())`,
        [randomUUID(), STAFF, await getPasswordHash(PASSWORD)],
      );
    } finally {
      await pool.end();
    }
    await page.goto('/login');
    await page.getByLabel('Email').fill(STAFF);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/account$/);
    // An unproven address gets no newsletter claim: /account says why (its request answers 403).
    await expect(page.getByRole('alert')).toContainText('Verify your address first');

    const response = await page.goto('/desk');
    expect(response?.status()).toBe(200);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Verify your address' }),
    ).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Desk' })).toHaveCount(0);
    expect((await page.request.get('/api/desk/me')).status()).toBe(404);

    await page.getByRole('button', { name: 'Email me a link' }).click();
    await expect(page.getByRole('status')).toContainText('We sent a sign-in link');
    const mail = await waitForMail(mailbox, STAFF);
    await page.goto(`/sign-in/link#token=${tokenFromMail(mail.text, '/sign-in/link')}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Back where they asked, and the desk opens.
    await expect(page).toHaveURL(/\/desk/);
    await expect(page.getByRole('navigation', { name: 'Desk' })).toBeVisible();
    expect((await page.request.get('/api/desk/me')).status()).toBe(200);
  });
});
