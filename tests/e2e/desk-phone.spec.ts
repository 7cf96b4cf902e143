import sharp from 'sharp';
import type { Page } from '@playwright/test';
import type { PostJson } from '../../contract/posts.js';
import { expect, signInAs, signInWithArticle, STAFF, test } from './fixtures.js';
import { expectNoSidewaysScroll } from './support/widths.js';

// The desk on a phone (390 px): its menu folded into one button that a keyboard and a screen
// reader can work, and an image's alt text and caption edited under the image in the editor, the
// toolbar's every tool in reach.

const PHONE = { width: 390, height: 844 };
const owner = { email: STAFF.owner, password: 'correct horse battery staple' };

test.use({ viewport: PHONE });

const body = (page: Page) => page.getByRole('textbox', { name: 'Body' });
const saved = (page: Page) => expect(page.getByRole('status').first()).toContainText(/^Saved /);
const storedBody = async (page: Page, id: number): Promise<string> =>
  ((await (await page.request.get(`/api/desk/posts/${id}`)).json()) as { post: PostJson }).post
    .body;

/** A photo as a phone leaves it, 1200×800. */
const photo = () =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .jpeg()
    .toBuffer();

test('on a phone the desk’s menu is one button: it opens and closes by keyboard, says so, and closes on Escape, outside or on a link', async ({
  page,
  mailbox,
}, testInfo) => {
  await signInAs(page, mailbox, owner);
  await page.goto('/desk/posts');
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Desk' });
  const menu = nav.getByRole('button', { name: 'Menu' });
  const comments = nav.getByRole('link', { name: 'Comments' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(comments).toBeHidden();
  await page.screenshot({ path: testInfo.outputPath('desk-menu-closed-390.png') });

  // By keyboard: Enter opens it, Tab goes into it, Escape closes it and gives the focus back.
  await menu.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(comments).toBeVisible();
  const controlled = await menu.getAttribute('aria-controls');
  await expect(page.locator(`[id="${controlled}"]`).getByRole('link')).not.toHaveCount(0);
  await expectNoSidewaysScroll(page, PHONE.width);
  await page.screenshot({ path: testInfo.outputPath('desk-menu-open-390.png') });
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Members' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeFocused();
  await expect(comments).toBeHidden();

  // A tap outside closes it.
  await menu.click();
  await expect(comments).toBeVisible();
  await page.mouse.click(PHONE.width / 2, PHONE.height - 20);
  await expect(menu).toHaveAttribute('aria-expanded', 'false');

  // A screen chosen from it opens, and the menu closes.
  await menu.click();
  await comments.click();
  await expect(page).toHaveURL(/\/desk\/comments$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(comments).toBeHidden();

  // On a desktop: every screen's link in the bar, no button.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu).toBeHidden();
  await expect(comments).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('desk-menu-1280.png') });
});

test('on a phone an image’s alt text and caption are edited under the image in the editor, and every tool of the toolbar is in reach', async ({
  page,
  mailbox,
}, testInfo) => {
  const draft = await signInWithArticle(page, mailbox, owner, 'Pictured On A Phone', 'Words.');
  await page.goto(`/desk/posts/${draft.id}`);
  await body(page).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.getByLabel('Upload image').setInputFiles({
    name: 'street.jpg',
    mimeType: 'image/jpeg',
    buffer: await photo(),
  });

  // The new image's alt text takes the focus, in the body, right under the image.
  // No alt text yet: an image for no one (role presentation) until it has one.
  const image = body(page).locator('img');
  const alt = body(page).getByLabel(/^Alt text/);
  const caption = body(page).getByLabel(/^Caption/);
  await expect(alt).toBeFocused();
  const drawn = await image.boundingBox();
  const altBox = await alt.boundingBox();
  expect(drawn && altBox).toBeTruthy();
  if (!drawn || !altBox) return;
  expect(altBox.y).toBeGreaterThanOrEqual(drawn.y + drawn.height);
  expect(altBox.y - (drawn.y + drawn.height)).toBeLessThan(80);
  expect(altBox.x).toBeGreaterThanOrEqual(drawn.x - 20);
  expect(altBox.x + altBox.width).toBeLessThanOrEqual(PHONE.width);

  await alt.fill('A street of brick flats at dusk');
  await caption.fill('Where the tenants’ union meets');
  await expect(image).toHaveAccessibleName('A street of brick flats at dusk');
  await page.screenshot({ path: testInfo.outputPath('editor-image-fields-390.png') });
  await expectNoSidewaysScroll(page, PHONE.width);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await saved(page);
  expect(await storedBody(page, draft.id)).toMatch(
    /!\[A street of brick flats at dusk\]\(\/uploads\/[a-z0-9]{20}-1200x800\.webp "Where the tenants’ union meets"\)/,
  );

  // Opened again: the stored words are under the image, and a change there is saved.
  await page.reload();
  await expect(alt).toHaveValue('A street of brick flats at dusk');
  await expect(caption).toHaveValue('Where the tenants’ union meets');
  await caption.fill('Where the union meets on Thursdays');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await saved(page);
  expect(await storedBody(page, draft.id)).toMatch(
    /!\[A street of brick flats at dusk\]\(\/uploads\/\S+ "Where the union meets on Thursdays"\)/,
  );

  // The toolbar scrolls in its own row: its last tool, off the screen at first, is reached and works.
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  const redo = toolbar.getByRole('button', { name: 'Redo' });
  expect(
    await toolbar.evaluate((element) => element.scrollWidth > element.clientWidth),
  ).toBeTruthy();
  await body(page).getByText('Words.').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' More words.');
  await toolbar.getByRole('button', { name: 'Undo' }).click();
  await expect(body(page)).not.toContainText('More words.');
  await redo.click();
  await expect(body(page)).toContainText('More words.');
  const redoBox = await redo.boundingBox();
  expect(redoBox && redoBox.x + redoBox.width).toBeLessThanOrEqual(PHONE.width);
  await expectNoSidewaysScroll(page, PHONE.width);
  await page.screenshot({ path: testInfo.outputPath('editor-toolbar-390.png') });
});
