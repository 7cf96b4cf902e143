import sharp from 'sharp';
import type { Page } from '@playwright/test';
import type { PostJson } from '../../contract/posts.js';
import type { SmtpCapture } from '#test/smtp-capture';
import {
  createArticle,
  expect,
  publishPost,
  signInAs,
  signInWithArticle,
  STAFF,
  test,
} from './fixtures.js';

// No word lost, and the editor's rough edges, as a writer met them: a new post left at once (by
// "← Posts" and by closing the tab), an image inserted just before the tab closed, a preview that
// opens where the writer is and says whose view it is, links made in a dialog, the toolbar's
// Image reached by keyboard, a reading time that follows the words, an address that never shows
// `//slug`, and topics suggested as they are typed.

const owner = { email: STAFF.owner, password: 'correct horse battery staple' };
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
type Viewport = (typeof VIEWPORTS)[number];

const body = (page: Page) => page.getByRole('textbox', { name: 'Body' });
const saved = (page: Page) => expect(page.getByRole('status').first()).toContainText(/^Saved /);
const storedPost = async (page: Page, id: number): Promise<PostJson> =>
  (await (await page.request.get(`/api/desk/posts/${id}`)).json()).post;
const idFromUrl = (page: Page) => Number(new URL(page.url()).pathname.split('/').pop());

/** A small photo, as a phone leaves it. */
const photo = (blue = 120) =>
  sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 30, g: 90, b: blue } } })
    .jpeg({ quality: 80 })
    .toBuffer();

/** The owner signed in at a viewport's size, with a new draft article titled for the viewport. */
async function ownerWithDraft(
  page: Page,
  mailbox: SmtpCapture,
  { name, width, height }: Viewport,
  title: string,
  words?: string,
) {
  await page.setViewportSize({ width, height });
  return signInWithArticle(page, mailbox, owner, `${title} ${name}`, words);
}

/** Opens a new article in the editor and types its title and a sentence of its body. */
async function typeNewPost(page: Page, title: string, sentence: string) {
  await page.goto('/desk/posts/new');
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await body(page).click();
  await page.keyboard.type(sentence);
}

for (const { name, width, height } of VIEWPORTS) {
  test(`a writer who presses “← Posts” at once in a new post is asked, and finds the draft saved (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, owner);
    const title = `Left at Once ${name}`;
    await typeNewPost(page, title, 'A sentence typed before leaving.');
    await page.getByRole('link', { name: '← Posts' }).click();

    const ask = page.getByRole('dialog', { name: 'Leave with unsaved changes?' });
    await expect(ask).toBeInViewport();
    await expect(ask).toContainText(`“${title}” has changes that are not saved yet.`);
    await page.screenshot({ path: testInfo.outputPath(`leave-${name}.png`) });
    await ask.getByRole('button', { name: 'Save and leave' }).click();

    await expect(page).toHaveURL(/\/desk\/posts$/);
    const listed = page.getByRole('link', { name: title });
    await expect(listed).toBeVisible();
    await listed.click();
    await expect(page).toHaveURL(/\/desk\/posts\/\d+$/);
    const stored = await storedPost(page, idFromUrl(page));
    expect(stored).toMatchObject({ title, status: 'draft' });
    expect(stored.body).toBe('A sentence typed before leaving.');
    // Nothing unsaved now: the menu's links go at once.
    await page.getByRole('link', { name: '← Posts' }).click();
    await expect(page).toHaveURL(/\/desk\/posts$/);
  });
}

test('a new post left without saving, or closed with its tab, keeps its words in the browser and offers them back', async ({
  page,
  mailbox,
}) => {
  await signInAs(page, mailbox, owner);
  await typeNewPost(page, 'Kept Here', 'Words that wait in the browser.');
  await page.getByRole('link', { name: '← Posts' }).click();
  await page.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/desk\/posts\/new$/);
  await page.getByRole('link', { name: '← Posts' }).click();
  await page.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page).toHaveURL(/\/desk\/posts$/);

  // Back in a new post: the words are offered back, and then saved as a draft.
  await page.goto('/desk/posts/new');
  await expect(page.getByText(/Your unsaved post from .* was kept in this browser/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue('Kept Here');
  await expect(body(page)).toHaveText('Words that wait in the browser.');
  await expect(page).toHaveURL(/\/desk\/posts\/\d+$/, { timeout: 15_000 });
  await saved(page);
  expect((await storedPost(page, idFromUrl(page))).body).toBe('Words that wait in the browser.');

  // A new post whose tab is closed at once: the browser asks, and its words come back.
  await typeNewPost(page, 'Closed With Its Tab', 'Typed, then the tab closed.');
  const asked = page.waitForEvent('dialog');
  const closed = page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.accept();
  await closed;
  const again = await page.context().newPage();
  await again.goto('/desk/posts/new');
  await expect(again.getByRole('textbox', { name: 'Title' })).toHaveValue('Closed With Its Tab');
  await expect(body(again)).toHaveText('Typed, then the tab closed.');
  // Not wanted after all: a blank post instead, and the kept words are gone.
  await again.getByRole('button', { name: 'Start a blank post instead' }).click();
  await expect(again.getByRole('textbox', { name: 'Title' })).toHaveValue('');
  await again.reload();
  await expect(again.getByRole('textbox', { name: 'Title' })).toHaveValue('');
});

test('an image inserted 1.5 s before the tab closes is in the draft when it is opened again', async ({
  page,
  mailbox,
}) => {
  const draft = await signInWithArticle(page, mailbox, owner, 'Closed Too Soon', 'Before.');
  await page.goto(`/desk/posts/${draft.id}`);
  await body(page).click();
  await page.keyboard.press('Control+End');
  await page.getByLabel('Upload image').setInputFiles({
    name: 'late.jpg',
    mimeType: 'image/jpeg',
    buffer: await photo(),
  });
  await expect(body(page).locator('img')).toHaveAttribute('src', /\/uploads\/.+\.webp$/);
  await page.waitForTimeout(1_500);
  const context = page.context();
  // The tab closes; if the browser asks, the writer leaves.
  page.on('dialog', (dialog) => void dialog.accept());
  await page.close({ runBeforeUnload: true });

  const again = await context.newPage();
  await again.goto(`/desk/posts/${draft.id}`);
  await expect(body(again).locator('img')).toHaveAttribute('src', /\/uploads\/.+\.webp$/);
  await saved(again);
  const stored = (await storedPost(again, draft.id)).body;
  expect(stored).toContain('Before.');
  expect(stored).toMatch(/!\[\]\(\/uploads\/[a-z0-9]{20}-\d+x\d+\.webp\)/);
});

for (const viewport of VIEWPORTS) {
  const { name } = viewport;
  test(`the preview opens where the writer is, says whose view it shows, and draws a draft publishing would refuse, naming what it lacks (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    const draft = await ownerWithDraft(
      page,
      mailbox,
      viewport,
      'Seen Before It Is Out',
      'A paragraph to preview.',
    );
    // No section and no summary yet: a draft as it is after a minute's writing.
    await page.goto(`/desk/posts/${draft.id}`);
    await page.getByLabel('Reading time (minutes)').fill('1');
    await page.getByLabel('Upload feature image').setInputFiles({
      name: 'cover.jpg',
      mimeType: 'image/jpeg',
      buffer: await photo(200),
    });
    await expect(page.getByLabel('Feature image alt text')).toBeVisible();
    // Scrolled down to the body's end, as a writer is when they want to see it.
    await page.getByLabel('Summary').scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: 'Preview' }).click();

    const preview = page.getByRole('dialog', { name: /^Preview: / });
    await expect(preview).toBeInViewport();
    // At the width of the writer's screen first; the other a button away.
    const [first, other, button] =
      name === 'phone'
        ? (['phone', 'desktop', 'Desktop'] as const)
        : (['desktop', 'phone', 'Phone'] as const);
    await expect(preview).toHaveAccessibleName(`Preview: as a visitor sees it (${first} width)`);
    const frame = page.frameLocator('iframe[name="post-preview"]');
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText(draft.title);
    await expect(page.locator('iframe[name="post-preview"]')).toBeInViewport();
    await expect(
      preview.getByRole('list', { name: 'Before publishing' }).getByRole('listitem'),
    ).toHaveText([
      'Section is required.',
      'Summary is required.',
      'Feature image alt text is required with a feature image.',
    ]);
    await expect(preview).not.toContainText('featureImageAlt');
    await expect(preview).not.toContainText('category');
    await page.screenshot({ path: testInfo.outputPath(`preview-${name}.png`) });

    await preview.getByRole('button', { name: 'As a member' }).click();
    await expect(preview).toHaveAccessibleName(`Preview: as a member sees it (${first} width)`);
    await preview.getByRole('button', { name: button }).click();
    await expect(preview).toHaveAccessibleName(`Preview: as a member sees it (${other} width)`);
    await expect(page.locator('iframe[name="post-preview"]')).toHaveAttribute(
      'style',
      other === 'phone' ? /390px/ : /1280px/,
    );
    await preview.getByRole('button', { name: 'Close preview' }).click();
    await expect(preview).toHaveCount(0);
    // Nothing was published, nor saved by the preview beyond the draft's own saves.
    expect((await storedPost(page, draft.id)).status).toBe('draft');
  });

  test(`a link is added, edited and removed in a dialog, not a prompt (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    const draft = await ownerWithDraft(page, mailbox, viewport, 'Linked');
    await page.goto(`/desk/posts/${draft.id}`);
    const prompts: string[] = [];
    page.on('dialog', (dialog) => {
      prompts.push(dialog.message());
      void dialog.dismiss();
    });
    await body(page).click();
    await page.keyboard.type('the official guide');
    await page.keyboard.press('Shift+Home');
    await page.getByRole('button', { name: 'Link', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: 'Add a link' });
    await expect(dialog).toBeInViewport();
    const address = dialog.getByRole('textbox', { name: 'Address' });
    await expect(address).toBeFocused();
    await address.fill('ftp://files.example');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Type an address starting with https:// or a path on this site such as /wealth.',
    );
    await address.fill('https://www.consumerfinance.gov');
    await expect(dialog.getByRole('checkbox', { name: 'Open in a new tab' })).toBeChecked();
    await page.screenshot({ path: testInfo.outputPath(`link-${name}.png`) });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    const link = body(page).getByRole('link', { name: 'the official guide' });
    await expect(link).toHaveAttribute('href', 'https://www.consumerfinance.gov');

    // Editing it: the dialog has its address; a path on this site opens in the same tab.
    await link.click();
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit link' });
    await expect(edit.getByRole('textbox', { name: 'Address' })).toHaveValue(
      'https://www.consumerfinance.gov',
    );
    await edit.getByRole('textbox', { name: 'Address' }).fill('/wealth');
    await expect(edit.getByRole('checkbox', { name: 'Open in a new tab' })).not.toBeChecked();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(link).toHaveAttribute('href', '/wealth');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await saved(page);
    expect((await storedPost(page, draft.id)).body).toBe('[the official guide](/wealth)');

    // Cancel changes nothing; Remove takes the link off and keeps the words.
    await link.click();
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Edit link' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    await expect(link).toHaveAttribute('href', '/wealth');
    await link.click();
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Edit link' })
      .getByRole('button', { name: 'Remove link' })
      .click();
    await expect(body(page).getByRole('link')).toHaveCount(0);
    await expect(body(page)).toHaveText('the official guide');
    expect(prompts).toEqual([]);
  });
}

test('the toolbar’s Image is a button that opens the file picker from the keyboard', async ({
  page,
  mailbox,
}) => {
  const draft = await signInWithArticle(page, mailbox, owner, 'Pictured', 'Words.');
  await page.goto(`/desk/posts/${draft.id}`);
  const image = page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', {
    name: 'Insert image',
  });
  await expect(image).toHaveText('Image');
  await image.focus();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (
    await chooser
  ).setFiles({ name: 'kbd.jpg', mimeType: 'image/jpeg', buffer: await photo(60) });
  await expect(page.getByLabel(/^Alt text/)).toBeFocused();
  await page.getByLabel(/^Alt text/).fill('Chosen by keyboard');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await saved(page);
  expect((await storedPost(page, draft.id)).body).toMatch(/!\[Chosen by keyboard\]\(\/uploads\//);
});

test('the reading time follows the words until the writer sets it, and the address never shows //slug', async ({
  page,
  mailbox,
}) => {
  await signInAs(page, mailbox, owner);
  await typeNewPost(page, 'Words Counted', 'Short.');
  await expect(page).toHaveURL(/\/desk\/posts\/\d+$/, { timeout: 15_000 });
  const id = idFromUrl(page);
  const minutes = page.getByLabel('Reading time (minutes)');
  await expect(minutes).toHaveValue('1');
  // Before a section: no `//words-counted`, but what is missing.
  await expect(page.getByText('Address: choose a Section to give it an address')).toBeVisible();
  await expect(page.locator('.desk__id', { hasText: '//' })).toHaveCount(0);
  await page.getByLabel('Section').selectOption('Wealth');
  await expect(page.getByText('/wealth/words-counted', { exact: true })).toBeVisible();
  const slug = page.getByLabel('Address (slug)');
  await slug.fill('');
  await slug.pressSequentially('counted', { delay: 20 });
  await expect(page.getByText('/wealth/counted', { exact: true })).toBeVisible();

  // 700 words pasted: about three minutes.
  const paste = (text: string) =>
    body(page).evaluate((editor, words) => {
      const data = new DataTransfer();
      data.setData('text/plain', words);
      editor.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, text);
  const words = (n: number) => Array.from({ length: n }, () => 'word').join(' ');
  await body(page).click();
  await page.keyboard.press('Control+End');
  await paste(` ${words(700)}`);
  await expect(minutes).toHaveValue('3');
  // Set by hand, it stays.
  await minutes.fill('9');
  await paste(` ${words(700)}`);
  await expect(page.getByText(/\b140\d words\b/)).toBeVisible();
  await expect(minutes).toHaveValue('9');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await saved(page);
  expect(await storedPost(page, id)).toMatchObject({ readingMinutes: 9, slug: 'counted' });
});

test('topics suggest the site’s existing ones as they are typed', async ({ page, mailbox }) => {
  await signInAs(page, mailbox, owner);
  // A published article carrying the topics "Tenant unions" and "Rent strikes".
  const post = await createArticle(page.request, {
    title: 'Paying It Down',
    tags: ['Tenant unions', 'Rent strikes'],
  });
  await publishPost(page.request, post);

  await typeNewPost(page, 'Loans, Again', 'More on the loans.');
  const topics = page.getByRole('combobox', { name: 'Topics' });
  await topics.pressSequentially('tenant', { delay: 20 });
  const suggestions = page.getByRole('listbox', { name: 'Suggestions' });
  await expect(suggestions.getByRole('option')).toHaveText(['Tenant unions']);
  await suggestions.getByRole('option', { name: 'Tenant unions' }).click();
  await expect(topics).toHaveValue('Tenant unions, ');
  // By keyboard: the next one, chosen with the arrows and Enter; one already taken is not offered.
  await topics.pressSequentially('rent s', { delay: 20 });
  await expect(suggestions.getByRole('option')).toHaveText(['Rent strikes']);
  await page.keyboard.press('ArrowDown');
  await expect(topics).toHaveAttribute('aria-activedescendant', /.+/);
  await page.keyboard.press('Enter');
  await expect(topics).toHaveValue('Tenant unions, Rent strikes, ');
  await topics.pressSequentially('ten', { delay: 20 });
  await expect(suggestions).toBeHidden();
  await topics.press('Backspace');
  await topics.press('Backspace');
  await topics.press('Backspace');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page).toHaveURL(/\/desk\/posts\/\d+$/);
  await saved(page);
  expect((await storedPost(page, idFromUrl(page))).tags).toEqual(['Tenant unions', 'Rent strikes']);
});

test('a link set to open in a new tab keeps the choice through a save, a reload and publishing', async ({
  page,
  mailbox,
}, testInfo) => {
  await signInAs(page, mailbox, owner);
  const post = await createArticle(page.request, {
    title: 'Opened Beside',
    body: 'Read this first.',
  });
  await page.goto(`/desk/posts/${post.id}`);
  await body(page).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('our wealth section');
  await page.keyboard.press('Shift+Home');
  await page.getByRole('button', { name: 'Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a link' });
  await dialog.getByRole('textbox', { name: 'Address' }).fill('/wealth');
  const newTab = dialog.getByRole('checkbox', { name: 'Open in a new tab' });
  // A page of this site opens in the same tab unless the writer chooses.
  await expect(newTab).toBeEnabled();
  await expect(newTab).not.toBeChecked();
  await newTab.check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Save draft' }).click();
  await saved(page);
  expect((await storedPost(page, post.id)).body).toBe(
    'Read this first.\n\n[our wealth section](/wealth){target="_blank"}',
  );

  await page.reload();
  await body(page).getByRole('link', { name: 'our wealth section' }).click();
  await page.getByRole('button', { name: 'Link', exact: true }).click();
  const edit = page.getByRole('dialog', { name: 'Edit link' });
  await expect(edit.getByRole('checkbox', { name: 'Open in a new tab' })).toBeChecked();
  await page.screenshot({ path: testInfo.outputPath('link-new-tab.png') });
  await edit.getByRole('button', { name: 'Cancel' }).click();

  const published = await publishPost(page.request, await storedPost(page, post.id));
  await page.goto(published.path);
  const link = page.getByRole('main').getByRole('link', { name: /our wealth section/ });
  await expect(link).toHaveAttribute('href', '/wealth');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
});

for (const viewport of VIEWPORTS) {
  const { name } = viewport;
  test(`the browser’s Back asks first when there is unsaved work: stay keeps the words and the address, leave goes back (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    const draft = await ownerWithDraft(page, mailbox, viewport, 'Backed Out', 'Saved words.');
    // Into the editor from the list, as a writer goes: Back leads to the list.
    await page.goto('/desk/posts');
    await page.getByRole('link', { name: draft.title }).click();
    await expect(page).toHaveURL(new RegExp(`/desk/posts/${draft.id}$`));
    await saved(page);
    const editorUrl = page.url();

    // Nothing unsaved: Back goes at once.
    await page.goBack();
    await expect(page).toHaveURL(/\/desk\/posts$/);
    await page.goForward();
    await expect(page).toHaveURL(editorUrl);

    await body(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Unsaved words.');
    // Back, before the draft saves itself: asked, and still in the editor.
    await page.goBack({ timeout: 2_000 }).catch(() => null);
    const ask = page.getByRole('dialog', { name: 'Leave with unsaved changes?' });
    await expect(ask).toBeInViewport();
    await expect(page).toHaveURL(editorUrl);
    await page.screenshot({ path: testInfo.outputPath(`back-${name}.png`) });
    await ask.getByRole('button', { name: 'Stay' }).click();
    await expect(ask).toHaveCount(0);
    await expect(page).toHaveURL(editorUrl);
    await expect(body(page)).toHaveText('Saved words. Unsaved words.');

    // Asked again, and this time left: back on the list, the words saved.
    await body(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' More.');
    await page.goBack({ timeout: 2_000 }).catch(() => null);
    await ask.getByRole('button', { name: 'Save and leave' }).click();
    await expect(page).toHaveURL(/\/desk\/posts$/);
    await expect(page.getByRole('link', { name: draft.title })).toBeVisible();
    expect((await storedPost(page, draft.id)).body).toBe('Saved words. Unsaved words. More.');
  });
}
