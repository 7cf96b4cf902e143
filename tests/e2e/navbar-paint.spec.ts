import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { waitForHydration } from './support/visit.js';

// What the navbar paints, whatever its script has done: solid past 99 px even before the app has
// taken the page over (a scroll-driven animation in styles.css), and a long site name kept on its
// own side of the menu.

/** The navbar's painted background colour, and the page band's it turns into. */
const colours = (page: Page) =>
  page.evaluate(() => {
    const bar = document.querySelector('[data-testid="navbar"]');
    const band = document.querySelector('.masthead');
    if (!bar || !band) throw new Error('no navbar or masthead');
    return {
      bar: getComputedStyle(bar).backgroundColor,
      ink: getComputedStyle(band).backgroundColor,
    };
  });

test('a reader scrolling before any script has run sees a solid navbar past 99 px', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/health');
  expect((await colours(page)).bar).toBe('rgba(0, 0, 0, 0)');

  await page.evaluate(() => window.scrollTo(0, 400));
  await expect.poll(async () => (await colours(page)).bar).toBe((await colours(page)).ink);

  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(async () => (await colours(page)).bar).toBe('rgba(0, 0, 0, 0)');
  await context.close();
});

test('a long site name ends in an ellipsis on one line, never under the menu (1280 px)', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await waitForHydration(page, '.navbar__brand');
  const brand = page.locator('.navbar__brand');
  const oneLine = (await brand.boundingBox())?.height ?? 0;
  // The name a publisher might choose, longer than the bar has room for beside its menu.
  await brand.evaluate((link) => {
    link.textContent = 'The Chesapeake Bay Tidewater Cooperative Press and Review';
  });
  const first = page.getByRole('navigation', { name: 'Main' }).locator('.navbar__links a').first();
  const [name, link] = [await brand.boundingBox(), await first.boundingBox()];
  if (!name || !link) throw new Error('the brand or the first link is not drawn');
  expect(name.x + name.width).toBeLessThanOrEqual(link.x);
  expect(name.height).toBe(oneLine);
  expect(link.y).toBeLessThan(name.y + name.height);
  await page.screenshot({ path: testInfo.outputPath('long-name-1280.png') });
});
