import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { createPost, expect, publishPost, signInAs, STAFF, test } from './fixtures.js';

// Every section is the publisher's, the samples' Direct Action and Collective Action too (issue
// 52; docs/publishing.md, "Sections and the menu"), at phone and desktop width: an owner renames
// Direct Action on the desk's Sections page, and its page, menu entry and old address follow; then
// deletes Collective Action, whose boycotts (no other section lists boycotts) go to the Trash
// after the page has asked where they go.

const { owner: OWNER } = STAFF;
const PASSWORD = 'correct horse battery staple';
const SHOTS = '/tmp/shots';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

interface Section {
  id: number;
  name: string;
  slug: string;
  lists: string;
}

const sectionsOf = async (request: APIRequestContext) =>
  ((await (await request.get('/api/desk/sections')).json()) as { sections: Section[] }).sections;

/**
 * The samples' two action sections as a new site has them, whatever the other width's run left:
 * Direct Action at /direct-action, and Collective Action at /collective listing one boycott.
 */
async function resetSections(request: APIRequestContext, name: string) {
  const sections = await sectionsOf(request);
  const campaigns = sections.find((section) => section.lists === 'campaigns');
  if (!campaigns) throw new Error('The site has no campaigns section');
  if (campaigns.slug !== 'direct-action') {
    const back = await request.patch(`/api/desk/sections/${campaigns.id}`, {
      data: { name: 'Direct Action', slug: 'direct-action' },
    });
    expect(back.status(), await back.text()).toBe(200);
  }
  if (!sections.some((section) => section.lists === 'boycotts')) {
    const made = await request.post('/api/desk/sections', {
      data: { name: 'Collective Action', slug: 'collective', inMenu: true, lists: 'boycotts' },
    });
    expect(made.status(), await made.text()).toBe(201);
  }
  const boycott = await createPost(request, {
    kind: 'boycott',
    title: `Skip the fast fashion sale (${name})`,
    slug: `skip-fast-fashion-${name}`,
    reason: 'They still will not publish their factories.',
    boycottStatus: 'Ongoing',
    alternative: { name: 'Repair cafés', description: 'Mend what you have.' },
    updates: [
      { date: '2026-01-05', note: 'It began.' },
      { date: '2026-02-05', note: 'It grew.' },
    ],
  });
  await publishPost(request, boycott);
}

/** The site's menu, opened where a phone folds it, with its "More" open where it has one. */
async function openMenu(page: Page) {
  const toggle = page.getByRole('button', { name: 'Open menu' });
  if (await toggle.isVisible()) await toggle.click();
  const menu = page.getByRole('navigation', { name: 'Main' });
  const more = menu.getByRole('button', { name: 'More' });
  if (await more.isVisible()) await more.click();
  return menu;
}

async function shoot(page: Page, file: string, outputPath: (name: string) => string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: outputPath(file), fullPage: true });
  // The copy to look at: what the screen shows.
  await page.screenshot({ path: `${SHOTS}/${file}` });
}

for (const { name, width, height } of WIDTHS) {
  test(`an owner renames Direct Action and deletes Collective Action, its boycotts to the Trash (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    const output = (file: string) => testInfo.outputPath(file);
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
    await resetSections(page.request, name);

    // Renamed, at a new address, from the desk.
    await page.goto('/desk/sections');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sections and navigation');
    const direct = page.getByRole('form', { name: /^Direct Action / });
    await direct.getByLabel('Name').fill('Take Action');
    await direct.getByLabel('Address').fill('take-action');
    await direct.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').first()).toHaveText('Saved Take Action.');
    await expect(page.getByRole('form', { name: /^Take Action / })).toBeVisible();

    // Its page at the new address, under its new name; the old address leads there in one hop.
    const old = await page.request.get('/direct-action', { maxRedirects: 0 });
    expect(old.status()).toBe(301);
    expect(old.headers().location).toBe('/take-action');
    await page.goto('/direct-action');
    await expect(page).toHaveURL('/take-action');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Take Action');
    const menu = await openMenu(page);
    await expect(menu.getByRole('link', { name: 'Take Action', exact: true })).toHaveAttribute(
      'href',
      '/take-action',
    );
    await expect(menu.getByRole('link', { name: 'Direct Action', exact: true })).toHaveCount(0);
    await shoot(page, `special-sections-renamed-${width}.png`, output);

    // Deleted: the page asks where its boycotts go, and the Trash is the one place there is.
    await page.goto('/desk/sections');
    const collective = page.getByRole('form', { name: /^Collective Action / });
    await expect(collective.getByRole('heading')).toContainText(/\d+ posts?/);
    await collective.getByRole('button', { name: 'Delete' }).click();
    const ask = page.getByRole('alertdialog');
    await expect(ask).toContainText(/Delete the section Collective Action\? It lists \d+ posts?/);
    const where = ask.getByRole('combobox', { name: /^Where its/ });
    await expect(where).toBeFocused();
    expect(await where.locator('option').allTextContents()).toEqual([
      expect.stringMatching(/^Move (it|them) to the Trash$/),
    ]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
    await shoot(page, `special-sections-delete-${width}.png`, output);
    await collective.screenshot({ path: `${SHOTS}/special-sections-dialog-${width}.png` });
    // Escape leaves everything as it was; then, by the keyboard, deleted.
    await page.keyboard.press('Escape');
    await expect(ask).toBeHidden();
    await expect(collective.getByRole('button', { name: 'Delete' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(where).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(ask.getByRole('button', { name: 'Delete Collective Action' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').first()).toHaveText(
      /^Deleted Collective Action; \d+ posts? in the Trash\.$/,
    );
    await expect(page.getByRole('form', { name: /^Collective Action / })).toHaveCount(0);

    // Its boycott is in the Trash; its page and its menu entry are gone.
    await page.goto('/desk/posts?status=deleted');
    await expect(page.getByText(`Skip the fast fashion sale (${name})`)).toBeVisible();
    expect((await page.request.get('/collective', { maxRedirects: 0 })).status()).toBe(404);
    await page.goto('/');
    const after = await openMenu(page);
    await expect(after.getByRole('link', { name: 'Collective Action', exact: true })).toHaveCount(
      0,
    );
    await expect(after.getByRole('link', { name: 'Take Action', exact: true })).toBeVisible();
  });
}
