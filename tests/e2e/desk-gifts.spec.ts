import type { APIRequestContext, Page } from '@playwright/test';
import type { DeskGift } from '../../contract/gifts.js';
import { expect, signInAs, STAFF, test, uniqueEmail } from './fixtures.js';
import { deliverPaymentSucceeded } from './support/deliver-webhook.js';
import { visit } from './support/visit.js';
import { tokenFromMail, waitForMail } from '#test/registration';

// The desk's gifts in the real built site: an owner finds a gift paid for and not
// claimed, corrects its address (a new link goes there at once, the old one stops working) and
// mails it again; an editor sees the list and no button; on a phone the table scrolls, the page
// does not.

const PASSWORD = 'correct horse battery staple';

/** The desk's list, as the page reads it. */
async function deskGifts(page: Page): Promise<DeskGift[]> {
  const response = await page.request.get('/api/desk/gifts');
  expect(response.status()).toBe(200);
  return (await response.json()).gifts;
}

/** Whether a claim link's token still names a gift (the claim page's first request). */
const linkWorks = async (request: APIRequestContext, token: string) =>
  (await request.post('/api/gifts/preview', { data: { token } })).ok();

test('an owner corrects an unclaimed gift’s address and mails it again; an editor only looks', async ({
  page,
  browser,
  site,
  stripe,
  mailbox,
}) => {
  if (!stripe) throw new Error('payments are on in this file');
  // A visitor gives a year to an address with a typo in it, paid at the fake Stripe.
  const typo = uniqueEmail().replace('@example.com', '@exmaple.com');
  const corrected = uniqueEmail();
  const visitor = await browser.newPage();
  await visit(visitor, '/');
  const bought = await visitor.request.post('/api/gifts', {
    data: { recipientEmail: typo, buyerEmail: uniqueEmail(), fromName: 'Ada' },
  });
  expect(bought.status(), await bought.text()).toBe(200);
  const intentId = String((await bought.json()).clientSecret).split('_secret_')[0] ?? '';
  const intent = stripe.succeedPaymentIntent(intentId);
  const paid = await deliverPaymentSucceeded(visitor.request, site.url, stripe, intent);
  expect(paid, 'the payment webhook').toBe(200);
  const firstLink = tokenFromMail((await waitForMail(mailbox, typo)).text, '/gift/claim');
  // The mail leaves inside the transaction that stores its link, so it can arrive a moment before
  // the commit (it did once in a clean-clone run): the link works once that has landed.
  await expect.poll(() => linkWorks(visitor.request, firstLink)).toBe(true);

  await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
  // The mail went; its row says so once the sending transaction has committed.
  await expect
    .poll(async () => (await deskGifts(page)).find((each) => each.paymentIntentId === intentId))
    .toMatchObject({ recipientEmail: typo, sentTo: typo });
  await page.goto('/desk');
  await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: 'Gifts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Gifts' })).toBeVisible();
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: typo }) });
  await expect(row).toContainText('Ada');
  await expect(row).toContainText(`Mailed`);
  await expect(row).toContainText(`to ${typo}`);
  await expect(row).toContainText('Active');

  // The address corrected: the link goes to it at once, and the one mailed before stops working.
  await row.getByRole('button', { name: `Change address of ${typo}` }).click();
  await expect(row.getByLabel('New address')).toBeFocused();
  await row.getByLabel('New address').fill(corrected);
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toHaveText(
    `Address changed; mailed a new link to ${corrected}.`,
  );
  const moved = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: corrected }) });
  await expect(moved).toContainText(`to ${corrected}`);
  await expect(page.getByRole('rowheader', { name: typo })).toHaveCount(0);
  const mail = await waitForMail(mailbox, corrected);
  expect(mail.subject).toBe('Ada gave you a year of Cohort');
  const secondLink = tokenFromMail(mail.text, '/gift/claim');
  expect(await linkWorks(visitor.request, firstLink)).toBe(false);
  expect(await linkWorks(visitor.request, secondLink)).toBe(true);
  const gift = (await deskGifts(page)).find((each) => each.paymentIntentId === intentId);
  expect(gift).toMatchObject({ recipientEmail: corrected, sentTo: corrected, state: 'active' });

  // Mailed again, once confirmed: a third link, the second one dead.
  await moved.getByRole('button', { name: `Mail again to ${corrected}` }).click();
  await moved.getByRole('button', { name: 'Mail a new link' }).click();
  await expect(page.getByRole('status')).toHaveText(`Mailed a new link to ${corrected}.`);
  const third = tokenFromMail((await waitForMail(mailbox, corrected, 2)).text, '/gift/claim');
  expect(await linkWorks(visitor.request, secondLink)).toBe(false);
  expect(await linkWorks(visitor.request, third)).toBe(true);
  await visitor.close();

  // On a phone the table scrolls inside its box; the page itself is no wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('rowheader', { name: corrected })).toBeAttached();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // An editor sees the same gift, and no button to change it.
  const editor = await browser.newPage();
  await signInAs(editor, mailbox, { email: STAFF.editor, password: PASSWORD });
  await editor.goto('/desk/gifts');
  await expect(editor.getByRole('rowheader', { name: corrected })).toBeVisible();
  await expect(editor.getByRole('button', { name: /^(Mail again|Change address)/ })).toHaveCount(0);
  await editor.close();
});
