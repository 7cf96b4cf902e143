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
