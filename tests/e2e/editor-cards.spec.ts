import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { PostJson } from '../../contract/posts.js';
import { expect, signInWithArticle, STAFF, test } from './fixtures.js';
import { expectNoSidewaysScroll } from './support/widths.js';

// Cards and sounds in the editor, as a writer makes them (decision note 0029): a YouTube address
// pasted on a line of its own becomes a card, and undo makes it the link it would have been; the
// toolbar's Embed and `/embed` ask for an address and refuse what is not one; an MP3 uploaded by
// the image control becomes a small player with its title and caption beside it. Saved, the
// Markdown has each on its line, and opened again, the editor shows them as it left them. Nothing
// in the editor asks YouTube, or anyone but the site, for anything.

const owner = { email: STAFF.owner, password: 'correct horse battery staple' };
const YOUTUBE = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
const READ = 'https://example.com/a-long-read';
const SLASHED = 'https://vimeo.com/76979871';
const MP3 = fileURLToPath(new URL('../fixtures/media/tone-3s.mp3', import.meta.url));

const body = (page: Page) => page.getByRole('textbox', { name: 'Body' });
const saved = (page: Page) => expect(page.getByRole('status').first()).toContainText(/^Saved /);
const storedPost = async (page: Page, id: number): Promise<PostJson> =>
  (await (await page.request.get(`/api/desk/posts/${id}`)).json()).post;
const card = (page: Page, label: string, url: string) =>
  body(page).getByRole('figure', { name: `${label}: ${url}` });

/** What a writer's Ctrl+V of `text` gives the editor where its cursor is. */
const paste = (page: Page, text: string) =>
  body(page).evaluate((editor, words) => {
    const data = new DataTransfer();
    data.setData('text/plain', words);
    editor.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);

test('a writer pastes a YouTube address, embeds two more, adds an MP3 and saves each on its line', async ({
  page,
  mailbox,
}, testInfo) => {
  // Sign-in, an upload the server reads for its length, a save and a reload.
  test.slow();
  const draft = await signInWithArticle(page, mailbox, owner, 'Cards and Sounds', 'An interview.');
  const site = new URL(page.url()).host;
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    const { protocol, host } = new URL(request.url());
    if (protocol.startsWith('http') && host !== site) elsewhere.push(request.url());
  });
  await page.goto(`/desk/posts/${draft.id}`);

  // Pasted alone on an empty line: a card saying whose it is.
  await body(page).getByText('An interview.').click();
  await body(page).press('End');
  await body(page).press('Enter');
  await paste(page, YOUTUBE);
  await expect(card(page, 'YouTube', YOUTUBE)).toBeVisible();
  await expect(card(page, 'YouTube', YOUTUBE)).toContainText(YOUTUBE);
  // Undo right after: the link it would have been. Redo: the card again.
  await body(page).press('ControlOrMeta+z');
  await expect(card(page, 'YouTube', YOUTUBE)).toHaveCount(0);
  await expect(body(page).getByRole('link', { name: YOUTUBE })).toBeVisible();
  await body(page).press('ControlOrMeta+Shift+z');
  await expect(card(page, 'YouTube', YOUTUBE)).toBeVisible();

  // The toolbar's Embed: an address that is not one is refused, saying why.
  await page
    .getByRole('toolbar', { name: 'Formatting' })
    .getByRole('button', { name: 'Embed' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Embed a video, post or page' });
  const address = dialog.getByRole('textbox', { name: 'Address' });
  await expect(address).toBeFocused();
  await address.fill('example.com/a-long-read');
  await dialog.getByRole('button', { name: 'Embed' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    /Type a whole address starting with https:\/\//,
  );
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await address.fill(READ);
  await expect(dialog).toContainText('A link card');
  await dialog.getByRole('button', { name: 'Embed' }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, 'Link card', READ)).toBeVisible();

  // `/embed` then Enter on an empty line: the same dialog.
  await page.keyboard.type('/embed');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await address.fill(SLASHED);
  await address.press('Enter');
  await expect(card(page, 'Vimeo', SLASHED)).toBeVisible();
  await expect(body(page)).not.toContainText('/embed');

  // An MP3 by the image control: a player, its title focused, its caption beside it.
  await page.getByLabel('Upload image, audio or video').setInputFiles(MP3);
  const title = page.getByLabel(/^Title \(what it is/);
  await expect(title).toBeFocused();
  await title.fill('A three-second tone');
  await page.getByLabel(/^Caption/).fill('Recorded for the test');
  const player = body(page).locator('audio');
  await expect(player).toHaveAttribute('preload', 'none');
  await expect(player).toHaveAttribute('src', /^\/uploads\/[a-z0-9]{20}-3s\.mp3$/);
  await expect(body(page)).toContainText('Audio, 0:03');

  await page.getByRole('button', { name: 'Save draft' }).click();
  await saved(page);
  const lines = (await storedPost(page, draft.id)).body.split('\n\n');
  expect(lines).toContain(YOUTUBE);
  expect(lines).toContain(READ);
  expect(lines).toContain(SLASHED);
  expect(lines).toContainEqual(
    expect.stringMatching(
      /^!\[A three-second tone\]\(\/uploads\/[a-z0-9]{20}-3s\.mp3 "Recorded for the test"\)$/,
    ),
  );

  // Opened again: the lines are cards and a player, not links and text.
  await page.reload();
  await expect(card(page, 'YouTube', YOUTUBE)).toBeVisible();
  await expect(card(page, 'Link card', READ)).toBeVisible();
  await expect(page.getByLabel(/^Title \(what it is/)).toHaveValue('A three-second tone');
  await expect(body(page).getByRole('link', { name: YOUTUBE })).toHaveCount(0);

  for (const [name, width, height] of [
    ['phone', 390, 844],
    ['desktop', 1280, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectNoSidewaysScroll(page, width);
    await page.screenshot({ path: testInfo.outputPath(`cards-${name}.png`), fullPage: true });
    // The body alone, where a phone's page would put the Save bar over it.
    await body(page).screenshot({ path: testInfo.outputPath(`cards-body-${name}.png`) });
  }
  // Never the provider's player, thumbnail or script: the desk asked no one but the site.
  expect(elsewhere).toEqual([]);
});
