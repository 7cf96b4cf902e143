import { expect, type Page } from '@playwright/test';

/** The widths the desk's pages are checked at: a desktop window and a phone's. */
export const DESK_WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** The page is no wider than the window: nothing to scroll sideways. */
export async function expectNoSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}
