import { asStaff, ensureTier, expect, signInAs, STAFF, test, uniqueEmail } from './fixtures.js';
import { paymentIntentWith } from './support/deliver-webhook.js';
import { visit } from './support/visit.js';

// Tiers where years are given and codes made, in the built site at phone and desktop width (a site
// of its own: the tier stays, an offer naming it): a visitor chooses the Patron tier on the gift
// page and is asked Patron's year paid once, and sees seats priced by it; an owner makes an offer
// for Patron's plans on the Offers page, and finds the tier among a comp's choices on a member's
// page.

const PASSWORD = 'correct horse battery staple';
const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

test.beforeAll(async ({ browser, site, mailbox }) => {
  await asStaff({ browser, site, mailbox }, { email: STAFF.owner, password: PASSWORD }, (owner) =>
    ensureTier(owner, {
      name: 'Patron',
      slug: 'patron',
      description: 'Keeps the investigations desk going, and gets the editors’ letter.',
      prices: { monthly: 500, yearly: 5000, once: 4000 },
    }),
  );
});

for (const { name, width, height } of WIDTHS) {
  test(`a visitor gives a year of Patron: the gift page asks which tier, and prices its year (${name})`, async ({
    page,
    stripe,
  }, testInfo) => {
    if (!stripe) throw new Error('payments are on in this file');
    await page.setViewportSize({ width, height });
    await visit(page, '/gift');
    const choice = page.getByRole('group', { name: 'The membership you give' });
    await expect(choice.getByRole('radio')).toHaveCount(2);
    await expect(choice.getByRole('radio', { name: /^Supporter/ })).toBeChecked();
    await expect(choice.getByText('$40 a year')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`gift-tiers-${name}.png`), fullPage: true });

    await choice.getByRole('radio', { name: /^Patron/ }).check();
    const friend = uniqueEmail();
    await page.getByLabel('Their email').fill(friend);
    await page.getByLabel('Your email').fill(uniqueEmail());
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(
      page.getByText(`$40 for a year of Patron at Cohort, for ${friend}.`),
    ).toBeVisible();
    const intent = paymentIntentWith(stripe, 'recipientEmail', friend);
    expect(intent).toMatchObject({
      amount: 4000,
      metadata: { offer: 'gift', tierId: expect.stringMatching(/^\d+$/) },
    });
    await expect(page.getByRole('button', { name: 'Pay now' })).toBeEnabled();
    await page.screenshot({
      path: testInfo.outputPath(`gift-tiers-${name}-payment.png`),
      fullPage: true,
    });

    // Seats ask the same, each seat priced by the tier chosen.
    await visit(page, '/pay-it-forward');
    const seats = page.getByRole('group', { name: 'Each seat is a year of' });
    await seats.getByRole('radio', { name: /^Patron/ }).check();
    await expect(page.getByText('$40 each: every seat is a year for one reader.')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`seat-tiers-${name}.png`), fullPage: true });
  });

  test(`an owner makes an offer for Patron’s plans, and may comp Patron (${name})`, async ({
    page,
    mailbox,
    site,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
    await page.goto('/desk/offers');
    const form = page.getByRole('form', { name: 'New offer' });
    await expect(form.getByLabel('Tier')).toHaveValue('supporter');
    await form.getByLabel('Tier').selectOption({ label: 'Patron' });
    const code = `PATRON${name.toUpperCase()}`;
    await form.getByLabel('Code', { exact: true }).fill(code);
    await form.getByLabel('Percent', { exact: true }).fill('15');
    await form.getByRole('button', { name: 'Make the offer' }).click();
    await expect(form.getByRole('status')).toHaveText(
      `Made ${code} for Patron: share ${site.url}/join?offer=${code}`,
    );
    const row = page.getByRole('row', { name: new RegExp(`^${code}`) });
    await expect(row).toContainText('of Patron');
    const offers = (await (await page.request.get('/api/desk/offers')).json()).offers;
    expect(offers.find((offer: { code: string }) => offer.code === code)).toMatchObject({
      tier: 'patron',
      tierName: 'Patron',
    });
    await page.screenshot({ path: testInfo.outputPath(`offer-tiers-${name}.png`), fullPage: true });

    // A member's page: the comp's choices are the tiers, the default one first chosen.
    const me = (await (await page.request.get('/api/me')).json()).user;
    await page.goto(`/desk/members/${me.id}`);
    const comp = page.getByRole('heading', { name: 'Grant a comp membership' }).locator('..');
    await expect(comp.getByLabel('Tier')).toHaveValue('supporter');
    await expect(comp.getByRole('option')).toHaveText(['Supporter', 'Patron']);
    await comp.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`comp-tiers-${name}.png`) });
  });
}
