import { expect, test } from './fixtures.js';

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the benefits box keeps a margin from both edges of the window', async ({ page }) => {
    await page.goto('/early-access');
    const benefits = page.getByRole('region', { name: 'For a dollar per month get access to' });
    await expect(benefits).toBeVisible();
    const box = await benefits.boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(16);
    expect(box && 390 - (box.x + box.width)).toBeGreaterThanOrEqual(16);
  });
});
