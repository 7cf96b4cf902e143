import type { Page } from '@playwright/test';

/** Opens a page and waits until the site has started (or resumed) this visitor's session. */
export async function visit(
  page: Page,
  path: string,
): Promise<{ id: string; isSubscribed: boolean }> {
  const session = page.waitForResponse(
    (response) => response.url().endsWith('/api/session') && response.ok(),
  );
  await page.goto(path);
  return (await (await session).json()).user;
}

/**
 * Waits until React has adopted `selector`'s element of a prerendered page (hydrated it: React
 * keeps its props on the DOM node then). Before that, a link is a plain link and a click loads the
 * next page from the server, as it should for a visitor, but a test of what the app does on a
 * click must wait.
 */
export async function waitForHydration(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((target) => {
    const element = document.querySelector(target);
    return !!element && Object.keys(element).some((key) => key.startsWith('__reactProps'));
  }, selector);
}
