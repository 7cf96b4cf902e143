import { expect, signInAs, STAFF, test } from './fixtures.js';
import { openDeskMenu } from './support/desk-menu.js';

// Tiers in the browser, at desktop and phone width: an owner adds a "Founder" tier on the desk's
// Tiers page, with its words and its own prices; the site's configuration lists it after the
// first tier, the Plans page shows its prices beside the first tier's, and the owner deletes it.

const PASSWORD = 'correct horse battery staple';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

for (const { name, width, height } of WIDTHS) {
  test(`an owner adds a Founder tier with its own prices; the site lists it and the Plans page shows them (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
    try {
      await page.goto('/desk');
      await (await openDeskMenu(page)).getByRole('link', { name: 'Tiers' }).click();
      await expect(page).toHaveURL('/desk/tiers');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tiers');
      const tiers = page.getByRole('list', { name: 'Tiers' });
      await expect(tiers.getByRole('heading', { name: /^Supporter / })).toBeVisible();

      const add = page.getByRole('form', { name: 'Add a tier' });
      await add.getByLabel('Name').fill('Founder');
      // The slug is made from the name unless one is typed.
      await expect(add.getByLabel('Slug')).toHaveAttribute('placeholder', 'founder');
      await add.getByLabel('Description').fill('For readers who want the site to last.');
      await add.getByLabel('Benefits (one a line)').fill('Every post\nA call with the editors');
      await add.getByLabel('Monthly').fill('5');
      await add.getByLabel('Yearly').fill('50');
      await add.getByLabel('Free trial (days)').fill('7');
      await add.getByRole('button', { name: 'Add tier' }).click();
      await expect(page.getByRole('status').first()).toHaveText('Added Founder.');
      const founder = page.getByRole('form', { name: /^Founder / });
      await expect(founder).toContainText('$5 a month · $50 a year');
      await expect(founder).toContainText('subscriptions start with 7 days free');
      await expect(founder.getByLabel('Slug')).toHaveValue('founder');
      await page.screenshot({
        path: testInfo.outputPath(`desk-tiers-${name}.png`),
        fullPage: true,
      });

      const config = await (await page.request.get('/api/config')).json();
      expect(
        config.tiers.map((tier: { slug: string; order: number; prices: object }) => [
          tier.slug,
          tier.order,
          tier.prices,
        ]),
      ).toEqual([
        ['supporter', 0, expect.objectContaining({ yearly: 1200 })],
        ['founder', 1, { monthly: 500, yearly: 5000, once: null }],
      ]);

      await (await openDeskMenu(page)).getByRole('link', { name: 'Plans' }).click();
      const prices = page.getByRole('table', { name: 'Each tier’s prices' });
      const row = prices.getByRole('row', { name: /^Founder/ });
      await expect(row.getByRole('cell')).toHaveText(['not sold', '$5', '$50']);
      // The first tier's plans are still changed here, as before tiers.
      await expect(page.getByRole('form', { name: /^Monthly/ })).toBeVisible();
      await page.screenshot({
        path: testInfo.outputPath(`desk-plans-${name}.png`),
        fullPage: true,
      });

      await (await openDeskMenu(page)).getByRole('link', { name: 'Tiers' }).click();
      await page
        .getByRole('form', { name: /^Founder / })
        .getByRole('button', { name: 'Delete' })
        .click();
      await page.getByRole('button', { name: 'Delete Founder' }).click();
      await expect(page.getByRole('status').first()).toHaveText('Deleted Founder.');
      await expect(tiers.getByRole('heading', { name: /^Founder / })).toHaveCount(0);
    } finally {
      // Whatever happened above, the site's other specs see its one tier.
      await page.request.delete('/api/desk/tiers/founder');
    }
  });
}
