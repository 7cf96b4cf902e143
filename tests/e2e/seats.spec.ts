import { expect, signInAs, STAFF, test, uniqueEmail } from './fixtures.js';
import { deliverPaymentSucceeded, paymentIntentWith } from './support/deliver-webhook.js';
import { visit } from './support/visit.js';
import { waitForMail } from '#test/registration';

// Solidarity seats in the browser: a visitor funds two seats on /pay-it-forward and
// pays; a reader who cannot pay asks for one there with a note; an owner grants it; the reader is
// a member, and the page counts one more membership given.

const PASSWORD = 'correct horse battery staple';

test('a visitor funds seats, a reader asks for one, an owner grants it, and the reader is a member', async ({
  page,
  browser,
  stripe,
  mailbox,
  site,
  registered,
}) => {
  if (!stripe) throw new Error('payments are on in this file');
  // The owner, in a browser of their own: no seats granted on their own in this test.
  const desk = await (await browser.newContext({ baseURL: site.url })).newPage();
  await signInAs(desk, mailbox, { email: STAFF.owner, password: PASSWORD });
  expect(
    (await desk.request.put('/api/desk/seats', { data: { autoGrantPerMonth: 0 } })).status(),
  ).toBe(200);
  const givenBefore = (await (await desk.request.get('/api/seats/pool')).json()).given as number;

  // The supporter, a visitor: this page's browser (which serves the Stripe.js stand-in), signed
  // out of the reader's account the fixture made in it; the reader signs in elsewhere below.
  const supporter = page;
  const supporterEmail = uniqueEmail();
  await visit(supporter, '/');
  await supporter.request.post('/api/auth/logout');
  await visit(supporter, '/pay-it-forward');
  await expect(supporter.getByRole('heading', { name: 'Pay it forward' })).toBeVisible();
  await supporter.getByRole('spinbutton', { name: 'Seats' }).fill('2');
  await supporter.getByLabel('Your email').fill(supporterEmail);
  await supporter.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(
    supporter.getByText('$24 for 2 seats: 2 years for readers who cannot pay.'),
  ).toBeVisible();
  await supporter.getByRole('button', { name: 'Pay now' }).click();
  await expect(supporter).toHaveURL(/\/pay-it-forward\?.*payment_intent_client_secret=/);
  await expect(
    supporter.getByRole('status').filter({ hasText: 'your seats are paid' }),
  ).toBeVisible();
  const intent = paymentIntentWith(stripe, 'supporterEmail', supporterEmail);
  if (!intent) throw new Error('no PaymentIntent for these seats');
  expect(intent.amount).toBe(2400);
  expect(await deliverPaymentSucceeded(supporter.request, site.url, stripe, intent)).toBe(200);
  expect((await waitForMail(mailbox, supporterEmail, 1, 10_000)).subject).toBe(
    'Your 2 seats for Cohort: receipt',
  );

  // The reader: signed in, not a member, asks with a note.
  const reader = await browser.newContext({ baseURL: site.url });
  const readerPage = await reader.newPage();
  await signInAs(readerPage, mailbox, { email: registered.email, password: registered.password });
  await visit(readerPage, '/pay-it-forward');
  const ask = readerPage.getByRole('region', { name: 'Can’t pay? Ask for a seat' });
  await ask.getByLabel('Your note').fill('Between jobs, and the guides would help me most now.');
  await ask.getByRole('button', { name: 'Ask for a seat' }).click();
  await expect(ask.getByText(/^You asked for a seat on /)).toBeVisible();

  // The owner grants it.
  const seats = (await (await desk.request.get('/api/desk/seats')).json()).seats as {
    requests: { id: string; email: string; state: string }[];
  };
  const request = seats.requests.find((r) => r.email === registered.email && r.state === 'open');
  if (!request) throw new Error('the request is not in the desk');
  expect((await desk.request.post(`/api/desk/seats/requests/${request.id}/grant`)).status()).toBe(
    200,
  );

  await readerPage.reload();
  await expect(
    readerPage.getByText('You are a member: thank you. If you can, fund a seat for someone else.'),
  ).toBeVisible();
  await expect(readerPage.getByRole('status').first()).toContainText(
    `${givenBefore + 1} ${givenBefore + 1 === 1 ? 'membership' : 'memberships'} given`,
  );
  await readerPage.goto('/account');
  await expect(readerPage.getByText(/^A solidarity seat: a year a reader paid for/)).toBeVisible();
  await reader.close();
  await desk.context().close();
});
