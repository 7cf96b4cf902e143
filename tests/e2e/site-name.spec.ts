import { expect, test } from './fixtures.js';
import { waitForHydration } from './support/visit.js';

// The site is named by SITE_NAME (docs/operating.md, "Configuration"): the server fills it into the prerendered
// pages at start, and the browser reads it from the page it hydrates.

test('a reader sees the site’s own name on the home page, before and after it hydrates', async ({
  page,
  browser,
}) => {
  // Before JavaScript: what a crawler or a link preview gets.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const bare = await noScript.newPage();
  const response = await bare.goto('/');
  const html = (await response?.text()) ?? '';
  expect(html).not.toContain('Cohort');
  await expect(bare).toHaveTitle('Tidewater Press · Your Generation, Better Informed');
  await noScript.close();

  // With JavaScript: the same words once React has adopted the page. The fixture fails the test
  // on any console error, a hydration mismatch included.
  await page.goto('/');
  await waitForHydration(page, '.navbar__brand');
  await waitForHydration(page, '.footer__brand');
  await expect(page).toHaveTitle('Tidewater Press · Your Generation, Better Informed');
  const navbar = page.getByRole('navigation', { name: 'Main' });
  await expect(navbar.getByRole('link', { name: 'Tidewater Press' })).toBeVisible();
  await expect(page.locator('.hero .eyebrow')).toHaveText('Tidewater Press');
  await expect(page.locator('.footer__brand')).toHaveText('Tidewater Press');
  await expect(page.locator('.footer__note')).toContainText('Tidewater Press.');
  await expect(page.locator('body')).not.toContainText('Cohort');

  // Moving on inside the app: the next page names itself, then the site.
  await navbar.getByRole('link', { name: 'Health', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Health');
  await expect(page).toHaveTitle('Health · Tidewater Press');
});

for (const { name, width, height } of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`the renamed home page, as a reader sees it (${name})`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height });
    await page.goto('/');
    await waitForHydration(page, '.navbar__brand');
    await expect(page.locator('.hero .eyebrow')).toHaveText('Tidewater Press');
    await page.screenshot({ path: testInfo.outputPath(`home-${name}.png`) });
    await page.locator('.footer').screenshot({ path: testInfo.outputPath(`footer-${name}.png`) });
  });
}

test('the pages drawn only in the browser name the site too', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Sign in · Tidewater Press');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tidewater Press' }),
  ).toBeVisible();
});

test('the pages a mailed link opens describe themselves with the site’s name', async ({ page }) => {
  for (const path of ['/sign-in/link', '/register/confirm']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      /Tidewater Press/,
    );
    expect(await page.content()).not.toContain('Cohort');
  }
});
