import type { Browser, Page } from '@playwright/test';
import type { FakeStripe } from '#test/fake-stripe';
import type { SmtpCapture } from '#test/smtp-capture';
import type { DeskSeats } from '../../contract/seats.js';
import { expect, registerThroughMail, signInAs, STAFF, test, uniqueEmail } from './fixtures.js';
import { deliverPaymentSucceeded } from './support/deliver-webhook.js';
import { visit } from './support/visit.js';

// The desk's solidarity seats in the real built site: a supporter pays for two seats;
// readers ask for one with a note; an owner grants one (the reader is a member at once), declines
// another once confirmed, and sets how many are granted on their own each month (a higher number
// grants a waiting request at once); an editor sees it all and no button. The site's database is
// shared with other specs: figures are checked against what they were before.

const PASSWORD = 'correct horse battery staple';

/** The desk's view, as the page reads it. */
async function deskSeats(page: Page): Promise<DeskSeats> {
  const response = await page.request.get('/api/desk/seats');
  expect(response.status()).toBe(200);
  return (await response.json()).seats;
}

/** A visitor pays for `seats` at the fake Stripe; Stripe's webhook is what makes the funding. */
async function fund(browser: Browser, siteUrl: string, stripe: FakeStripe, seats: number) {
  const visitor = await browser.newPage({ baseURL: siteUrl });
  await visit(visitor, '/');
  const made = await visitor.request.post('/api/seats', {
    data: { seats, supporterEmail: uniqueEmail() },
  });
  expect(made.status(), await made.text()).toBe(200);
  const intentId = String((await made.json()).clientSecret).split('_secret_')[0] ?? '';
  const intent = stripe.succeedPaymentIntent(intentId);
  const paid = await deliverPaymentSucceeded(visitor.request, siteUrl, stripe, intent);
  expect(paid, 'the payment webhook').toBe(200);
  await visitor.close();
}

/** A reader with an account of their own asks for a seat: their page, still signed in. */
async function ask(browser: Browser, siteUrl: string, mailbox: SmtpCapture, note: string) {
  const reader = await browser.newPage({ baseURL: siteUrl });
  await visit(reader, '/');
  const email = uniqueEmail();
  await registerThroughMail(reader.request, mailbox, { email, password: PASSWORD });
  const asked = await reader.request.post('/api/seats/requests', { data: { note } });
  expect(asked.status(), await asked.text()).toBe(201);
  return { email, page: reader };
}

test('an owner grants a seat, declines a request once confirmed and sets the monthly number; an editor only looks', async ({
  page,
  browser,
  site,
  stripe,
  mailbox,
}) => {
  test.setTimeout(60_000);
  if (!stripe) throw new Error('payments are on in this file');
  await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
  // None granted on their own while the requests are made (another spec may have set a number).
  const reset = await page.request.put('/api/desk/seats', { data: { autoGrantPerMonth: 0 } });
  expect(reset.status(), await reset.text()).toBe(200);

  await fund(browser, site.url, stripe, 2);
  const note = 'I lost my job this spring.\nA year would let me keep following the campaigns.';
  const granted = await ask(browser, site.url, mailbox, note);
  const declined = await ask(browser, site.url, mailbox, 'Student, no income for now.');
  const before = await deskSeats(page);
  expect(before.pool.available).toBeGreaterThanOrEqual(2);

  await page.goto('/desk');
  await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: 'Seats' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Solidarity seats' })).toBeVisible();
  const figures = page.getByRole('list', { name: 'The pool now' }).getByRole('listitem');
  const expectFigures = async (given: number, available: number, waiting: number) => {
    await expect(figures.nth(0)).toHaveText(`${given} given`);
    await expect(figures.nth(1)).toHaveText(`${available} available in the pool`);
    await expect(figures.nth(2)).toHaveText(`${waiting} waiting`);
  };
  await expectFigures(before.pool.given, before.pool.available, before.pool.waiting);
  const rowOf = (email: string) =>
    page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: email }) });
  // The note in full, as the reader wrote it.
  await expect(rowOf(granted.email).getByRole('cell').first()).toHaveText(note);
  await expect(rowOf(granted.email)).toContainText('Waiting');

  // Granted from the pool: the reader is a member at once.
  await rowOf(granted.email)
    .getByRole('button', { name: `Grant a seat to ${granted.email}` })
    .click();
  await expect(page.getByRole('status')).toHaveText(`Granted a seat to ${granted.email}.`);
  await expect(rowOf(granted.email)).toContainText('Granted');
  await expect(rowOf(granted.email).getByRole('button')).toHaveCount(0);
  await expectFigures(before.pool.given + 1, before.pool.available - 1, before.pool.waiting - 1);
  const me = await granted.page.request.get('/api/me');
  expect((await me.json()).user).toMatchObject({ email: granted.email, isSubscribed: true });
  await granted.page.close();

  // Declined once confirmed: Cancel first leaves it waiting.
  const declineButton = rowOf(declined.email).getByRole('button', {
    name: `Decline the request of ${declined.email}`,
  });
  await declineButton.click();
  const confirm = rowOf(declined.email).getByRole('alertdialog');
  await expect(confirm).toContainText(`Decline the request of ${declined.email}?`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(rowOf(declined.email)).toContainText('Waiting');
  await declineButton.click();
  await rowOf(declined.email)
    .getByRole('alertdialog')
    .getByRole('button', { name: 'Decline', exact: true })
    .click();
  await expect(page.getByRole('status')).toHaveText(`Declined the request of ${declined.email}.`);
  await expect(rowOf(declined.email)).toContainText('Declined');
  await expectFigures(before.pool.given + 1, before.pool.available - 1, before.pool.waiting - 2);
  const me2 = await declined.page.request.get('/api/me');
  expect((await me2.json()).user).toMatchObject({ isSubscribed: false });
  await declined.page.close();

  // One more each month than granted so far this month: a waiting request goes at once.
  const third = await ask(browser, site.url, mailbox, 'Retired on a small pension.');
  await third.page.close();
  await page.reload();
  const form = page.getByRole('form', { name: 'Granted on their own' });
  await expect(form).toContainText(`${before.grantedThisMonth} granted this month.`);
  const perMonth = before.grantedThisMonth + 1;
  await form.getByLabel('Granted on their own each month').fill(String(perMonth));
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('status')).toHaveText(
    `Saved: ${perMonth} granted on their own each month. 1 request granted just now.`,
  );
  await expect(form).toContainText(`${perMonth} granted this month.`);
  await expect(form.getByLabel('Granted on their own each month')).toHaveValue(String(perMonth));
  await expectFigures(before.pool.given + 2, before.pool.available - 2, before.pool.waiting - 2);
  expect((await deskSeats(page)).autoGrantPerMonth).toBe(perMonth);
  // And back to none: every request left to the owners.
  await form.getByLabel('Granted on their own each month').fill('0');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved: none granted on their own each month.');

  // On a phone the tables scroll inside their boxes; the page is no wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('rowheader', { name: granted.email })).toBeAttached();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // An editor sees the requests and the pool, and nothing to change them with.
  const editor = await browser.newPage({ baseURL: site.url });
  await signInAs(editor, mailbox, { email: STAFF.editor, password: PASSWORD });
  await editor.goto('/desk/seats');
  await expect(editor.getByRole('rowheader', { name: granted.email })).toBeVisible();
  const declinedRow = editor
    .getByRole('row')
    .filter({ has: editor.getByRole('rowheader', { name: declined.email }) });
  await expect(declinedRow).toContainText('Student, no income for now.');
  await expect(declinedRow).toContainText('Declined');
  await expect(editor.getByText('Granted on their own each month: none.')).toBeVisible();
  await expect(editor.getByRole('button', { name: /^(Grant|Decline|Save)/ })).toHaveCount(0);
  await expect(editor.getByRole('spinbutton')).toHaveCount(0);
  await editor.close();
});
