import { expect, test } from './fixtures.js';

test('the home page renders the pitch and the navbar in Chromium, titled with the site’s name and line', async ({
  page,
}) => {
  await page.goto('/');
  // The name, then the hero's line, as every other page names itself before the site.
  await expect(page).toHaveTitle('Cohort · Your Generation, Better Informed');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Your Generation, Better Informed',
  );
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Cohort' })).toHaveAttribute('href', '/');
});

test.describe('an unknown address', () => {
  // The server answers it with a real 404, which Chromium reports as a console error.
  test.use({ expectedConsoleErrors: [/status of 404/] });

  test('shows the 404 page, answered with a 404', async ({ page }) => {
    const response = await page.goto('/pk');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page).toHaveTitle('Page not found · Cohort');
  });
});

test('/index goes to the home page', async ({ page }) => {
  await page.goto('/index');
  await expect(page).toHaveURL(/\/$/);
});

for (const width of [320, 390]) {
  test(`tabbing through a row of cards brings each focused card fully into view (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    // The prerendered page can be tabbed through at once; the row's focus handling is the
    // script's, so wait until it has arrived (the lazily loaded sections included).
    await page.waitForLoadState('networkidle');
    const row = page.getByRole('region', { name: 'Health' }).getByRole('list');
    const cards = row.getByRole('listitem');
    await expect(cards).toHaveCount(3);
    // On a phone the row is a strip that scrolls sideways.
    expect(await row.evaluate((list) => list.scrollWidth > list.clientWidth)).toBe(true);

    await page.getByRole('link', { name: /All Health articles/ }).focus();
    for (let index = 0; index < 3; index++) {
      await page.keyboard.press('Tab');
      await expect(cards.nth(index).getByRole('link')).toBeFocused();
      await expect
        .poll(
          async () => {
            const [card, strip] = await Promise.all([
              cards.nth(index).boundingBox(),
              row.boundingBox(),
            ]);
            if (!card || !strip) return 'not drawn';
            const inside =
              card.x >= Math.max(strip.x, 0) - 1 &&
              card.x + card.width <= Math.min(strip.x + strip.width, width) + 1 &&
              card.y >= -1 &&
              card.y + card.height <= 800 + 1;
            return inside
              ? 'fully in view'
              : `${card.width}×${card.height} at ${card.x}, ${card.y}`;
          },
          `card ${index + 1}`,
        )
        .toBe('fully in view');
    }
  });
}
