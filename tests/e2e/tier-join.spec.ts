import type { Page } from '@playwright/test';
import { periodEnd } from '#test/fake-stripe';
import { asStaff, ensureTier, expect, STAFF, test } from './fixtures.js';
import { paymentIntentWith } from './support/deliver-webhook.js';
import { visit } from './support/visit.js';

// Two tiers in the built site, at phone and desktop width (a site of its own: the Join dialog of
// the other specs offers one tier): a visitor chooses Founder in the Join dialog, then a plan, and
// Checkout (or the year paid once's form) is for Founder's price; a member moves up from
// Supporter to Founder on /account, paying the difference now, and back down from the renewal.

const PASSWORD = 'correct horse battery staple';
const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

const chooser = (page: Page) => page.getByRole('dialog');

test.beforeAll(async ({ browser, site, mailbox }) => {
  await asStaff(
    { browser, site, mailbox },
    { email: STAFF.owner, password: PASSWORD },
    async (owner) => {
      await ensureTier(owner, {
        name: 'Founder',
        slug: 'founder',
        description: 'Keeps the newsroom independent, and gets the editors’ letter.',
        benefits: [
          'Every members’ post',
          'The editors’ monthly letter',
          'Your name in the credits',
        ],
        prices: { monthly: 400, yearly: 4000, once: 4000 },
      });
      const supporter = await owner.patch('/api/desk/tiers/supporter', {
        data: {
          description: 'Reads every members’ post and keeps the site free for everyone else.',
          benefits: ['Every members’ post', 'The podcast’s members’ feed'],
        },
      });
      expect(supporter.status(), await supporter.text()).toBe(200);
    },
  );
});

for (const { name, width, height } of WIDTHS) {
  test(`a visitor chooses Founder in the Join dialog, then a plan, and pays Founder’s price (${name})`, async ({
    page,
    stripe,
  }, testInfo) => {
    if (!stripe) throw new Error('payments are on in this file');
    await page.setViewportSize({ width, height });
    const visitor = await visit(page, '/');
    // On a phone, Join is in the menu, folded behind its toggle.
    if (name === 'phone') await page.getByRole('button', { name: 'Open menu' }).click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Join/ })
      .click();
    const dialog = chooser(page);
    await expect(dialog.getByRole('heading', { name: 'Join Cohort' })).toBeVisible();
    const tiers = dialog.getByRole('listitem').filter({ has: page.getByRole('heading') });
    await expect(tiers.getByRole('heading')).toHaveText(['Supporter', 'Founder']);
    const founder = tiers.filter({ hasText: 'Founder' });
    await expect(founder).toContainText('Keeps the newsroom independent');
    await expect(founder).toContainText('Your name in the credits');
    await expect(founder).toContainText('$4 a month · $40 a year, or $40 once');
    await page.screenshot({ path: testInfo.outputPath(`tier-join-${name}.png`) });

    await founder.getByRole('button', { name: 'Choose Founder' }).click();
    await expect(dialog.getByRole('heading', { name: 'Founder' })).toBeFocused();
    await expect(dialog.getByRole('button', { name: /^Monthly: \$4 a month/ })).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'Once: $40 for one year' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`tier-join-${name}-plans.png`) });

    const [checkoutTab] = await Promise.all([
      page.context().waitForEvent('page'),
      dialog.getByRole('button', { name: /^Yearly: \$40 a year/ }).click(),
    ]);
    await expect.poll(() => checkoutTab.url()).toContain('/checkout/cs_test_');
    const session = stripe.get(checkoutTab.url().split('/').pop() ?? '');
    expect(stripe.get(String(session.price))).toMatchObject({
      unit_amount: 4000,
      metadata: { cohort_tier_id: expect.stringMatching(/^\d+$/) },
    });
    await checkoutTab.close();

    // Back and once: the year paid once's form is Founder's.
    await dialog.getByRole('button', { name: '← All memberships' }).click();
    await expect(dialog.getByRole('heading', { name: 'Join Cohort' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Choose Founder' }).click();
    await dialog.getByRole('link', { name: 'Once: $40 for one year' }).click();
    await expect(page).toHaveURL(/\/early-access\?tier=founder#payment$/);
    await expect(page.getByText('Founder: $40 for your first year')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`tier-join-${name}-once.png`) });
    await expect
      .poll(() => paymentIntentWith(stripe, 'userId', visitor.id))
      .toMatchObject({ amount: 4000, metadata: { tierId: expect.stringMatching(/^\d+$/) } });
  });

  test(`a member moves up to Founder on their account, then down from the renewal (${name})`, async ({
    page,
    stripe,
    registered,
  }, testInfo) => {
    if (!stripe) throw new Error('payments are on in this file');
    await page.setViewportSize({ width, height });
    const started = await page.request.post('/api/checkout', { data: { plan: 'yearly' } });
    const sessionId = new URL((await started.json()).url).pathname.split('/').pop() ?? '';
    expect(stripe.get(sessionId).client_reference_id).toBe(registered.id);
    // Joined yesterday: its year began then.
    const yesterday = Math.floor(Date.now() / 1000) - 24 * 3600;
    stripe.completeCheckout(sessionId, { periodEnd: periodEnd(yesterday, 'year') });
    expect((await page.request.get(`/api/checkout/${sessionId}`)).ok()).toBe(true);

    await page.goto('/account');
    const panel = page.locator('.tier-moves');
    await expect(panel.getByRole('heading', { name: 'Your membership: Supporter' })).toBeVisible();
    await expect(page.getByText(/^Active member: Supporter \(yearly, renews on /)).toBeVisible();
    await expect(panel).toContainText('Founder $40 a year');
    await panel.getByRole('button', { name: 'Move up to Founder' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`tier-account-${name}.png`) });

    await panel.getByRole('button', { name: 'Move up to Founder' }).click();
    await expect(
      panel.getByText(/^Move to Founder now\? Today your card is charged/),
    ).toBeVisible();
    await panel.getByRole('button', { name: 'Move to Founder' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'You are a Founder member now.' }),
    ).toBeVisible();
    await expect(panel.getByRole('heading', { name: 'Your membership: Founder' })).toBeVisible();
    await expect(page.getByText(/^Yearly subscription: \$2[78]\.\d\d on/)).toBeVisible();

    await panel.getByRole('button', { name: 'Move down to Supporter' }).click();
    await expect(
      panel.getByText(/^Move to Supporter on \w+ \d+, \d{4}\? You stay Founder/),
    ).toBeVisible();
    await panel.getByRole('button', { name: 'Move to Supporter' }).click();
    await expect(
      panel.getByText(/^You move to Supporter on \w+ \d+, \d{4}\. Until then/),
    ).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Stay Founder' })).toBeVisible();
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`tier-account-${name}-moving.png`) });
  });
}
