import { expect, test } from './fixtures.js';
import { visit, waitForHydration } from './support/visit.js';

// The archive (/archive): every article by the month it came out, from the site's footer, to a
// month's page, its year's and an article, moving inside the app (each page's content fetched as
// the reader moves). The sample articles of February 2024: "Rent vs. Buy" (the 22nd), "Burnout"
// (the 20th) and "Your Credit Score" (the 1st).

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

for (const { name, width, height } of WIDTHS) {
  test(`a reader goes back through the archive by month and year to an old article (${name})`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await visit(page, '/');
    await waitForHydration(page, 'footer a[href="/archive"]');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Archive' }).click();
    await expect(page).toHaveURL('/archive');
    await expect(page.getByRole('heading', { level: 1, name: 'Archive' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'February 2024' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`archive-${name}.png`), fullPage: true });

    await page.getByRole('heading', { level: 2, name: 'February 2024' }).getByRole('link').click();
    await expect(page).toHaveURL('/archive/2024/02');
    await expect(page.getByRole('heading', { level: 1, name: 'February 2024' })).toBeVisible();
    const titles = page.locator('.archive__item a');
    await expect(titles).toHaveText([/^Rent vs\. Buy/, /^Burnout/, /^Your Credit Score/]);
    await page.screenshot({
      path: testInfo.outputPath(`archive-month-${name}.png`),
      fullPage: true,
    });

    await page.getByRole('link', { name: '2024', exact: true }).first().click();
    await expect(page).toHaveURL('/archive/2024');
    await expect(page.getByRole('heading', { level: 1, name: '2024' })).toBeVisible();
    await page.getByRole('link', { name: /^Burnout/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: /^Burnout/ })).toBeVisible();
  });
}
