import { expect, test } from './fixtures.js';

test("the page has one footer, the site's, and links its privacy policy and terms", async ({
  page,
}) => {
  await page.goto('/early-access');
  await expect(page.getByRole('heading', { name: 'Coming Soon!' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveCount(1);
  await expect(page.getByText(/copyright 2023/i)).toHaveCount(0);
  const year = String(new Date().getFullYear());
  await expect(page.getByRole('contentinfo')).toContainText(`© ${year} Cohort`);

  const main = page.getByRole('main');
  await main.getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page).toHaveURL('/privacy');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
  await page.goBack();
  await main.getByRole('link', { name: 'Terms of use' }).click();
  await expect(page).toHaveURL('/terms');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of Use');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the benefits box keeps a margin from both edges of the window', async ({ page }) => {
    await page.goto('/early-access');
    const benefits = page.getByRole('region', { name: 'What members get' });
    await expect(benefits).toBeVisible();
    const box = await benefits.boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(16);
    expect(box && 390 - (box.x + box.width)).toBeGreaterThanOrEqual(16);
  });
});
