import { expect, test, uniqueEmail } from './fixtures.js';
import { deliverPaymentSucceeded, paymentIntentWith } from './support/deliver-webhook.js';
import { visit } from './support/visit.js';
import { tokenFromMail, waitForMail } from '#test/registration';

// Gifts in the browser: a visitor buys a friend a year, with a message, and pays; the
// friend opens the mailed link, creates an account, claims the year and finds it on /account; the
// buyer is mailed a receipt, then told of the claim.

const PASSWORD = 'correct horse battery staple';

test('a visitor gives a friend a year; the friend claims it with a new account and sees it on their account', async ({
  page,
  browser,
  stripe,
  mailbox,
  site,
}) => {
  if (!stripe) throw new Error('payments are on in this file');
  const friend = uniqueEmail();
  const buyer = uniqueEmail();

  // The fake Stripe serves every spec of this worker: count, do not expect none.
  const paymentIntents = () =>
    [...stripe.objects.values()].filter((o) => o.object === 'payment_intent').length;
  const paymentIntentsBefore = paymentIntents();
  await visit(page, '/gift');
  await expect(page.getByRole('heading', { name: 'Give a year of Cohort' })).toBeVisible();
  // A wrong address is said next to its field, and nothing is bought.
  await page.getByLabel('Their email').fill('not an address');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByText('Enter a valid email address, like name@example.com.')).toBeVisible();
  await expect(page.getByText('Enter an email address.')).toBeVisible(); // the buyer's, empty
  expect(paymentIntents()).toBe(paymentIntentsBefore);
  await page.getByLabel('Their email').fill(friend);
  await page.getByLabel('Your name (optional)').fill('Ada');
  await page.getByLabel('Message (optional)').fill('Happy birthday!\nStart with the boycotts.');
  await page.getByLabel('Your email').fill(buyer);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByText(`$12 for a year of Cohort, for ${friend}.`)).toBeVisible();
  const payNow = page.getByRole('button', { name: 'Pay now' });
  await expect(payNow).toBeEnabled();
  await payNow.click();
  await expect(page).toHaveURL(/\/gift\?.*payment_intent_client_secret=/);
  await expect(page.getByRole('status')).toContainText('Thank you: your gift is paid.');

  // Stripe's webhook is what makes the gift (and sends its mail).
  const intent = paymentIntentWith(stripe, 'recipientEmail', friend);
  if (!intent) throw new Error('no PaymentIntent for this gift');
  expect(intent.amount).toBe(1200);
  expect(await deliverPaymentSucceeded(page.request, site.url, stripe, intent)).toBe(200);
  expect((await waitForMail(mailbox, buyer, 1, 10_000)).subject).toBe(
    `Your gift of Cohort to ${friend}: receipt`,
  );
  const mail = await waitForMail(mailbox, friend, 1, 10_000);
  expect(mail.subject).toBe('Ada gave you a year of Cohort');
  const link = `${site.url}/gift/claim#token=${tokenFromMail(mail.text, '/gift/claim')}`;

  // The friend, in a browser of their own.
  const context = await browser.newContext({ baseURL: site.url });
  const friendPage = await context.newPage();
  await friendPage.goto(link);
  await expect(
    friendPage.getByRole('heading', { name: 'Ada gave you a year of Cohort' }),
  ).toBeVisible();
  await expect(friendPage.getByText('Happy birthday!')).toBeVisible();
  await expect(friendPage).toHaveURL(`${site.url}/gift/claim`); // the token left the address bar
  await expect(friendPage.getByRole('link', { name: 'Create an account' })).toBeVisible();

  // They create an account: the site mails them a link, whose page brings them back here.
  await friendPage.getByRole('link', { name: 'Create an account' }).click();
  await friendPage.getByLabel('Email').fill(friend);
  await friendPage.getByRole('button', { name: 'Register' }).click();
  await expect(friendPage.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  const confirm = await waitForMail(mailbox, friend, 2, 10_000);
  await friendPage.goto(
    `/register/confirm#token=${tokenFromMail(confirm.text, '/register/confirm')}`,
  );
  await friendPage.getByLabel('Password').fill(PASSWORD);
  await friendPage.getByRole('button', { name: 'Create my account' }).click();
  await expect(friendPage).toHaveURL(`${site.url}/gift/claim`);
  await expect(friendPage.getByText(`It goes to your account, ${friend}.`)).toBeVisible();
  await friendPage.getByRole('button', { name: 'Claim your year' }).click();
  const nextYear = String(new Date(Date.now() + 365 * 24 * 3600 * 1000).getFullYear());
  await expect(friendPage.getByRole('status')).toContainText('The year is yours.');
  await expect(friendPage.getByRole('status')).toContainText(
    new RegExp(`Your membership runs until .*${nextYear}`),
  );
  await friendPage.getByRole('link', { name: 'Your account' }).click();
  await expect(friendPage.getByText('A year, given to you as a gift')).toBeVisible();

  expect((await waitForMail(mailbox, buyer, 2, 10_000)).subject).toBe(
    'Your gift of Cohort was claimed',
  );
  await context.close();
});
