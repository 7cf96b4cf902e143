import { expect, test } from './fixtures.js';
import { visit } from './support/visit.js';

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

for (const { name, width, height } of WIDTHS) {
  test(`a visitor sees every offer, a members-only note and Join, and no code (${name})`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await visit(page, '/perks');
    await expect(page.getByRole('heading', { level: 1, name: 'Member perks' })).toBeVisible();
    const join = page.getByRole('region', { name: 'Members only' });
    await expect(join.getByRole('button', { name: /^Join/ })).toBeVisible();
    for (const category of ['Food', 'Travel', 'Services', 'Online retailers']) {
      await expect(page.getByRole('heading', { level: 2, name: category })).toBeVisible();
    }
    const offer = page.getByRole('article', { name: '15% off every order' });
    await expect(offer).toContainText('Green Bowl Kitchen');
    await expect(offer).toContainText('Members only: join to see how to redeem it.');
    await expect(page.getByText('How to redeem:')).toHaveCount(0);
    expect(await page.content()).not.toContain('COHORT-GREENBOWL-15');
    await page.screenshot({
      path: testInfo.outputPath(`perks-visitor-${name}.png`),
      fullPage: true,
    });
  });
}

test('a member reveals a code, copies it, and gets the same code again', async ({
  page,
  context,
  member,
}, testInfo) => {
  expect(member.email).toContain('@');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  for (const { name, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    await visit(page, '/perks');
    await expect(page.getByRole('region', { name: 'Your perks' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Members only' })).toHaveCount(0);
    const offer = page.getByRole('article', { name: '15% off every order' });
    await expect(offer).toContainText('How to redeem:');
    await offer.getByRole('button', { name: 'Show my code' }).click();
    await expect(offer.getByLabel('Your code')).toHaveText('COHORT-GREENBOWL-15');
    await offer.getByRole('button', { name: 'Copy' }).click();
    await expect(offer.getByRole('status')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('COHORT-GREENBOWL-15');

    const link = page.getByRole('article', { name: '10% off stays of two nights or more' });
    await link.getByRole('button', { name: 'Show my code' }).click();
    await expect(link.getByRole('link', { name: /Open the offer/ })).toHaveAttribute(
      'href',
      'https://roamhostels.example/offers/cohort-members',
    );
    await page.screenshot({
      path: testInfo.outputPath(`perks-member-${name}.png`),
      fullPage: true,
    });
  }
});

test('the benefits box and the footer lead to the perks', async ({ page }) => {
  await visit(page, '/early-access');
  await page.getByRole('link', { name: /^Member perks: offers/ }).click();
  await expect(page).toHaveURL(/\/perks$/);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Member perks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Member perks' })).toBeVisible();
});
