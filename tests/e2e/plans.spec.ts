import type { Page } from '@playwright/test';
import { expect, registerThroughMail, signInAs, STAFF, test, uniqueEmail } from './fixtures.js';
import { visit } from './support/visit.js';
import { deliverPaymentSucceeded, paymentIntentWith } from './support/deliver-webhook.js';
import { waitForMail } from '#test/registration';

// Plans in the browser: a visitor chooses a dollar a month and becomes a monthly
// member; an owner prices and turns plans off in the desk, and visitors are offered that at once.

const PASSWORD = 'correct horse battery staple';

const chooser = (page: Page) => page.getByRole('dialog', { name: 'Join Cohort' });

async function openChooser(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Join/ })
    .click();
  await expect(chooser(page)).toBeVisible();
}

/** A plan's button in the open dialog: Checkout opens for it in a new tab. */
async function checkoutFor(page: Page, plan: RegExp) {
  const [checkoutTab] = await Promise.all([
    page.context().waitForEvent('page'),
    chooser(page).getByRole('button', { name: plan }).click(),
  ]);
  await expect.poll(() => checkoutTab.url()).toContain('/checkout/cs_test_');
  return checkoutTab;
}

/** Join in the navbar, then a plan in the dialog that lists them. */
async function joinWith(page: Page, plan: RegExp) {
  await openChooser(page);
  return checkoutFor(page, plan);
}

// On this site the paywall waits its default 30 s: it cannot cover the navbar before Join is
// pressed, as it can on a site whose paywall comes 1.5 s after load (payments.spec.ts).
test('Join lets a visitor choose a plan, and opens Stripe Checkout for it and this visitor in a new tab', async ({
  page,
  stripe,
}) => {
  if (!stripe) throw new Error('payments are on in this file');
  const user = await visit(page, '/');
  const checkoutTab = await joinWith(page, /^Yearly: \$12 a year/);
  expect(checkoutTab.url()).toMatch(new RegExp(`^${stripe.url}/checkout/cs_test_`));
  const session = stripe.get(checkoutTab.url().split('/').pop() ?? '');
  expect(session.client_reference_id).toBe(user.id);
  expect(stripe.get(String(session.price))).toMatchObject({
    unit_amount: 1200,
    recurring: { interval: 'year' },
  });
});

test('coming back from a paid Checkout makes the visitor a member and cleans the address', async ({
  page,
  stripe,
}) => {
  if (!stripe) throw new Error('payments are on in this file');
  await visit(page, '/');
  const checkoutTab = await joinWith(page, /^Yearly/);
  const sessionId = checkoutTab.url().split('/').pop() ?? '';
  stripe.completeCheckout(sessionId);

  // Stripe sends the visitor back to the success URL.
  await checkoutTab.goto(`/?checkout_session_id=${sessionId}`);
  await expect(
    checkoutTab.getByText('Welcome to Cohort: your membership is active.'),
  ).toBeVisible();
  await expect(checkoutTab).toHaveURL(/\/$/);
  const me = await (await checkoutTab.request.get('/api/me')).json();
  expect(me.user.isSubscribed).toBe(true);
});

test('a reader chooses a dollar a month, pays at Checkout, sees it on their account, and switches to yearly there', async ({
  page,
  stripe,
  registered,
}) => {
  if (!stripe) throw new Error('payments are on in this file');
  await visit(page, '/');
  const user = registered;
  const checkoutTab = await joinWith(page, /^Monthly: \$1 a month/);
  const sessionId = checkoutTab.url().split('/').pop() ?? '';
  const session = stripe.get(sessionId);
  expect(session.client_reference_id).toBe(user.id);
  expect(stripe.get(String(session.price))).toMatchObject({
    unit_amount: 100,
    recurring: { interval: 'month' },
  });
  stripe.completeCheckout(sessionId);

  await checkoutTab.goto(`/?checkout_session_id=${sessionId}`);
  await expect(
    checkoutTab.getByText('Welcome to Cohort: your membership is active.'),
  ).toBeVisible();
  await checkoutTab.goto('/account');
  await expect(checkoutTab.getByText(/^Active member \(monthly, renews on /)).toBeVisible();
  await expect(checkoutTab.getByText(/^Monthly subscription: \$1\.00 on/)).toBeVisible();

  // A year instead: what Stripe will do is said first, then done, and the account follows.
  await checkoutTab.getByRole('button', { name: 'Switch to the yearly plan ($12 a year)' }).click();
  await expect(
    checkoutTab.getByText(/^Switch to the yearly plan\? Your card is charged \$12 today/),
  ).toBeVisible();
  await checkoutTab.getByRole('button', { name: 'Switch to yearly' }).click();
  await expect(
    checkoutTab.getByRole('status').filter({ hasText: 'You are on the yearly plan now.' }),
  ).toBeVisible();
  const nextYear = new Date(Date.now() + 365 * 24 * 3600 * 1000).getUTCFullYear();
  await expect(checkoutTab.getByText(/^Active member \(yearly, renews on /)).toContainText(
    String(nextYear),
  );
  await expect(checkoutTab.getByText(/^Yearly subscription: \$1[01]\.\d\d on/)).toBeVisible();
  await expect(
    checkoutTab.getByRole('button', { name: 'Switch to the monthly plan ($1 a month)' }),
  ).toBeVisible();
});

test('an owner prices the monthly plan, moves its members to the new price, and takes the yearly one off sale; the Join dialog follows', async ({
  page,
  browser,
  mailbox,
  stripe,
}) => {
  test.slow(); // an owner's and several readers' journeys, one after another
  if (!stripe) throw new Error('payments are on in this file');
  // A member at $1 a month, with an account.
  const subscriber = await browser.newPage();
  await visit(subscriber, '/');
  const email = uniqueEmail();
  await registerThroughMail(subscriber.request, mailbox, {
    email,
    password: 'my long enough passphrase',
  });
  const started = await subscriber.request.post('/api/checkout', { data: { plan: 'monthly' } });
  const sessionId = new URL((await started.json()).url).pathname.split('/').pop() ?? '';
  stripe.completeCheckout(sessionId);
  expect((await subscriber.request.get(`/api/checkout/${sessionId}`)).ok()).toBe(true);
  await subscriber.close();

  await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
  const put = (id: string, data: object) => page.request.put(`/api/desk/plans/${id}`, { data });
  try {
    await page.goto('/desk/plans');
    const monthly = page.getByRole('form', { name: /^Monthly/ });
    await expect(monthly).toContainText('Now $1 a month ($12 a year).');
    await monthly.getByLabel('Price (USD)').fill('0.10');
    await monthly.getByRole('button', { name: 'Save' }).click();
    await expect(monthly.getByRole('alert')).toContainText('A price is between $0.50 and $10,000');

    await monthly.getByLabel('Price (USD)').fill('2');
    await monthly.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('form', { name: /^Monthly/ })).toContainText(
      'Now $2 a month ($24 a year).',
    );
    // Members who subscribed at $1 keep it until the owner moves them, each told first.
    const again = page.getByRole('form', { name: /^Monthly/ });
    await expect(again).toContainText(/\d+ members? pays? the price they subscribed at, not \$2\./);
    await again.getByRole('button', { name: 'Move them to $2…' }).click();
    await again.getByRole('button', { name: 'Tell and move them' }).click();
    await expect(again.getByRole('status')).toContainText(/^Told and moved: [1-9]/);
    const notice = await waitForMail(mailbox, email, 2); // after the registration link
    expect(notice.subject).toMatch(/^Your Cohort membership: \$2 a month from /);
    const yearly = page.getByRole('form', { name: /^Yearly/ });
    await yearly.getByLabel('On sale').uncheck();
    await yearly.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('form', { name: /^Yearly/ })).toContainText('not on sale');

    // A visitor in another browser is offered what the owner set.
    const visitor = await browser.newPage();
    await visit(visitor, '/');
    await openChooser(visitor);
    await expect(
      chooser(visitor).getByRole('button', { name: /^Monthly: \$2 a month/ }),
    ).toBeVisible();
    await expect(chooser(visitor)).toContainText('$24 a year. Cancel any time.');
    await expect(chooser(visitor).getByRole('button', { name: /^Yearly/ })).toHaveCount(0);
    await visitor.close();

    // The year paid once taken off sale: its page offers the subscriptions instead of its form.
    expect((await put('yearly', { enabled: true })).ok()).toBe(true);
    expect((await put('early-access', { enabled: false })).ok()).toBe(true);
    // The home page's offer says the price of the year on sale, the yearly plan's now, as priced.
    expect((await put('yearly', { amountCents: 1800 })).ok()).toBe(true);
    const home = await browser.newPage();
    await visit(home, '/');
    await expect(home.getByRole('region', { name: 'Join the cohort' })).toContainText(
      '$18 for your first year.',
    );
    await expect(home.getByRole('link', { name: 'Get early access' })).toHaveCount(2);
    await expect(home.getByRole('link', { name: 'Get early access' }).first()).toBeVisible();
    await home.close();
    const reader = await browser.newPage();
    await visit(reader, '/early-access');
    await expect(reader.getByText('The year paid once is not on sale now.')).toBeVisible();
    await reader.getByRole('button', { name: 'Join monthly or yearly' }).click();
    await expect(chooser(reader).getByRole('button', { name: /^Yearly/ })).toBeVisible();
    await expect(chooser(reader).getByRole('link', { name: /^Once/ })).toHaveCount(0);
    await reader.close();

    await page.getByRole('link', { name: 'Audit log' }).click();
    await expect(page.getByText('changed a plan').first()).toBeVisible();
  } finally {
    expect((await put('monthly', { amountCents: 100 })).ok()).toBe(true);
    expect((await put('yearly', { enabled: true, amountCents: 1200 })).ok()).toBe(true);
    expect((await put('early-access', { enabled: true })).ok()).toBe(true);
  }
});

test('an owner gives the monthly plan a free week; a reader with an account starts it, and their account says so', async ({
  page,
  browser,
  mailbox,
  stripe,
}) => {
  if (!stripe) throw new Error('payments are on in this file');
  await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
  try {
    await page.goto('/desk/plans');
    const monthly = page.getByRole('form', { name: /^Monthly/ });
    await monthly.getByLabel('Free trial (days)').fill('7');
    await expect(monthly.getByLabel('Card up front')).toBeChecked();
    await monthly.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('form', { name: /^Monthly/ })).toContainText(
      'Starts with a 7-day free trial (card up front), once per reader with an account.',
    );

    const reader = await browser.newPage();
    await visit(reader, '/');
    await registerThroughMail(reader.request, mailbox, {
      email: uniqueEmail(),
      password: 'my long enough passphrase',
    });
    await reader.reload();
    await openChooser(reader);
    await expect(chooser(reader)).toContainText(
      'Starts with 7 days free, once, for readers with an account.',
    );
    const checkoutTab = await checkoutFor(reader, /^Monthly/);
    const sessionId = checkoutTab.url().split('/').pop() ?? '';
    stripe.completeTrialCheckout(sessionId);
    await checkoutTab.goto(`/?checkout_session_id=${sessionId}`);
    await expect(
      checkoutTab.getByText('Welcome to Cohort: your membership is active.'),
    ).toBeVisible();
    await checkoutTab.goto('/account');
    await expect(checkoutTab.getByText(/^Free trial, until /)).toBeVisible();
    await expect(checkoutTab.getByText(/^Free trial: \$0\.00 on/)).toBeVisible();
    await reader.close();
  } finally {
    expect(
      (await page.request.put('/api/desk/plans/monthly', { data: { trialDays: 0 } })).ok(),
    ).toBe(true);
  }
});

test('an offer’s link prices the year with its code, pays it, and counts it; a code that cannot be redeemed says why and charges nothing', async ({
  page,
  browser,
  mailbox,
  stripe,
  site,
}) => {
  if (!stripe) throw new Error('payments are on in this file');
  test.slow(); // three browsers' journeys, one after another
  // The owner, in a browser of their own, makes the offer.
  const desk = await browser.newPage();
  await signInAs(desk, mailbox, { email: STAFF.owner, password: PASSWORD });
  const code = `SPRING${Date.now() % 100_000}`;
  await desk.goto('/desk/offers');
  const form = desk.getByRole('form', { name: 'New offer' });
  await form.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
  await form.getByLabel('Percent', { exact: true }).fill('25');
  await form.getByLabel('Yearly').uncheck();
  await form.getByRole('button', { name: 'Make the offer' }).click();
  await expect(form.getByRole('status')).toHaveText(
    `Made ${code}: share ${site.url}/join?offer=${code}`,
  );
  const offer = (await (await desk.request.get('/api/desk/offers')).json()).offers.find(
    (each: { code: string }) => each.code === code,
  );
  expect(offer).toMatchObject({
    percentOff: 25,
    duration: 'once',
    plans: ['early-access', 'monthly'],
  });

  // A reader follows the link: the early-access page, with the year at 25% off, paid.
  const session = page.waitForResponse((r) => r.url().endsWith('/api/session') && r.ok());
  await page.goto(`/join?offer=${code.toLowerCase()}`);
  await session;
  await expect(page).toHaveURL(new RegExp(`/early-access\\?offer=${code.toLowerCase()}$`));
  await expect(page.getByRole('status')).toContainText(
    'With your code: $9 for your first year, instead of $12.',
  );
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page.getByText('Payment succeeded!')).toBeVisible();
  const paid = paymentIntentWith(stripe, 'discountOffer', offer.id);
  expect(paid).toMatchObject({ amount: 900, status: 'succeeded' });
  if (!paid) throw new Error('no PaymentIntent with the offer');
  expect(await deliverPaymentSucceeded(page.request, site.url, stripe, paid)).toBe(200);

  // The chooser takes a code too; an unknown one is refused with its reason, and no tab opens.
  const other = await browser.newPage();
  await visit(other, '/');
  await openChooser(other);
  await chooser(other).getByLabel('Have a code?').fill('NOSUCHCODE');
  await chooser(other)
    .getByRole('button', { name: /^Monthly/ })
    .click();
  await expect(chooser(other).getByRole('alert')).toContainText(
    'No offer has the code “NOSUCHCODE”',
  );
  await chooser(other).getByLabel('Have a code?').fill(code);
  const [checkoutTab] = await Promise.all([
    other.context().waitForEvent('page'),
    chooser(other)
      .getByRole('button', { name: /^Monthly/ })
      .click(),
  ]);
  await expect.poll(() => checkoutTab.url()).toContain('/checkout/cs_test_');
  const checkout = stripe.get(checkoutTab.url().split('/').pop() ?? '');
  expect(checkout.discounts).toEqual([{ promotion_code: expect.stringMatching(/^promo_/) }]);

  // A refused code on the early-access page: the reason, and the way to the full price.
  await visit(other, '/early-access?offer=NOSUCHCODE');
  await expect(other.getByRole('alert')).toContainText('No offer has the code “NOSUCHCODE”');
  await other.getByRole('link', { name: 'Pay the full price instead' }).click();
  await expect(other).toHaveURL(/\/early-access$/);
  await expect(other.getByText('No offer has the code')).toHaveCount(0);
  await other.close();

  // The desk counts it, and the owner ends it.
  await desk.reload();
  const row = desk.getByRole('row', { name: new RegExp(`^${code}`) });
  await expect(row).toContainText('25% off the first payment');
  // The other reader's Checkout, open in its tab, holds one more.
  await expect(row.getByRole('cell').nth(2)).toHaveText('1 (1 being paid)');
  await expect(row).toContainText('$9');
  await row.getByRole('button', { name: `End ${code}` }).click();
  await expect(desk.getByRole('row', { name: new RegExp(`^${code}`) })).toContainText('ended');
  await desk.close();
});
