import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The desk's navigation, with its menu open where a phone folds it behind the Menu button
 * (client/src/features/desk/desk-menu.tsx): its links can be clicked at any width.
 */
export async function openDeskMenu(page: Page): Promise<Locator> {
  const nav = page.getByRole('navigation', { name: 'Desk' });
  await expect(nav).toBeVisible();
  const menu = nav.getByRole('button', { name: 'Menu' });
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false') {
    await menu.click();
  }
  return nav;
}
