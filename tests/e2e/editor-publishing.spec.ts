import type { APIRequestContext, Page } from '@playwright/test';
import type { PostJson } from '../../contract/posts.js';
import { expect, signInAs, STAFF, test } from './fixtures.js';

// Publishing from the editor as an editor does it: a scheduled post published now after all, a
// schedule cancelled, a live post moved to a new address (told the old one redirects), an earlier
// version compared with the post now and restored (told it goes live at once), and a long body
// written on a phone with the Save button always in reach.

const editor = { email: STAFF.editor, password: 'correct horse battery staple' };
const PHONE = { width: 390, height: 844 };

/** A whole article made from the desk's API (what publishing needs), with a slug of its own. */
async function newArticle(request: APIRequestContext, title: string, body: string) {
  const slug = `${title.toLowerCase().replace(/[^a-z]+/g, '-')}-${Date.now().toString(36)}`;
  const created = await request.post('/api/desk/posts', {
    data: {
      kind: 'article',
      title,
      slug,
      category: 'Wealth',
      summary: 'A post for the publishing tests.',
      readingMinutes: 2,
      body,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { post: PostJson }).post;
}

/** Publishes the post now (`at` absent) or schedules it, from the API. */
async function publish(request: APIRequestContext, post: PostJson, at?: string) {
  const done = await request.post(`/api/desk/posts/${post.id}/publish`, {
    data: { version: post.version, ...(at && { at }) },
  });
  expect(done.status(), await done.text()).toBe(200);
  return ((await done.json()) as { post: PostJson }).post;
}

const stored = async (page: Page, id: number) =>
  ((await (await page.request.get(`/api/desk/posts/${id}`)).json()) as { post: PostJson }).post;
const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const actions = (page: Page) => page.getByRole('group', { name: 'Save and publish' });

test('a scheduled post is published now after all, and readers find it at once', async ({
  page,
  browser,
  mailbox,
}) => {
  await signInAs(page, mailbox, editor);
  const post = await newArticle(page.request, 'Sooner Than Planned', 'Ready early.');
  await page.goto(`/desk/posts/${post.id}`);
  await page.getByLabel(/^Go live at \(your time, /).fill('2031-03-04T09:30');
  await page.getByRole('button', { name: 'Schedule' }).click();
  await page.getByRole('button', { name: 'Yes, schedule' }).click();
  await expect(heading(page)).toHaveText('Article · scheduled');

  // A scheduled post offers to go live now or not at all, not to be "unpublished".
  await expect(actions(page).getByRole('button', { name: 'Unpublish' })).toHaveCount(0);
  await expect(actions(page).getByRole('button', { name: 'Cancel schedule' })).toBeVisible();
  await actions(page).getByRole('button', { name: 'Publish now' }).click();
  await expect(page.getByRole('alertdialog')).toContainText(
    /Publish “Sooner Than Planned” now at http:\/\/[^ ]+\/wealth\/sooner-than-planned-[a-z0-9]+, instead of on Mar 4, 2031, 9:30 AM/,
  );
  await page.getByRole('button', { name: 'Yes, publish now' }).click();
  await expect(heading(page)).toHaveText('Article · published');

  const live = await stored(page, post.id);
  expect(live.status).toBe('published');
  expect(new Date(live.publishedAt ?? 0).getTime()).toBeLessThanOrEqual(Date.now());
  const reader = await browser.newPage();
  await reader.goto(new URL(post.path, page.url()).href);
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText('Sooner Than Planned');
  await reader.close();
});

test('a schedule is cancelled: the post is a draft again and never goes live', async ({
  page,
  mailbox,
}) => {
  await signInAs(page, mailbox, editor);
  const draft = await newArticle(page.request, 'Not This Month', 'Held back.');
  const scheduled = await publish(page.request, draft, '2031-05-01T08:00:00.000Z');
  await page.goto(`/desk/posts/${draft.id}`);
  await expect(heading(page)).toHaveText('Article · scheduled');

  await actions(page).getByRole('button', { name: 'Cancel schedule' }).click();
  await expect(page.getByRole('alertdialog')).toContainText(
    /Cancel the schedule\? “Not This Month” will not go live on May 1, 2031.*: it becomes a draft again\./,
  );
  await page.getByRole('button', { name: 'Yes, cancel the schedule' }).click();
  await expect(heading(page)).toHaveText('Article · draft');
  await expect(page.getByText('Schedule cancelled: the post is a draft again.')).toBeVisible();
  await expect(actions(page).getByRole('button', { name: 'Publish', exact: true })).toBeVisible();

  const post = await stored(page, draft.id);
  expect(post).toMatchObject({ status: 'draft', version: scheduled.version + 1 });
  expect((await page.request.get(post.path)).status()).toBe(404);
});

test('a live post moved to a new address says the old one redirects, and it does', async ({
  page,
  mailbox,
}) => {
  await signInAs(page, mailbox, editor);
  const live = await publish(
    page.request,
    await newArticle(page.request, 'Moving House', 'Boxes.'),
  );
  await page.goto(`/desk/posts/${live.id}`);
  await page.getByLabel('Address (slug)').fill(`${live.slug}-moved`);
  await actions(page).getByRole('button', { name: 'Publish changes' }).click();
  const origin = new URL(page.url()).origin;
  await expect(page.getByRole('alertdialog')).toContainText(
    `Publish the changes to “Moving House” at its new address, ${origin}${live.path}-moved? ` +
      `The old address, ${origin}${live.path}, will redirect to the new one.`,
  );
  await page.getByRole('button', { name: 'Yes, publish changes' }).click();
  await expect(
    page.getByText(`Published at ${live.path}-moved; ${live.path} redirects to it.`),
  ).toBeVisible();

  const old = await page.request.get(live.path, { maxRedirects: 0 });
  expect(old.status()).toBe(301);
  expect(old.headers().location).toBe(`${live.path}-moved`);
});

test('the history shows each version’s status and what changed since, and restores a live post’s earlier version', async ({
  page,
  mailbox,
}, testInfo) => {
  await signInAs(page, mailbox, editor);
  const draft = await newArticle(
    page.request,
    'Saving For A Deposit',
    'Open an account.\n\nPut a little in every week.\n\nDo not touch it.',
  );
  // A draft saved once more before it went live: version 1 stays in the history as a draft.
  const redrafted = await page.request.patch(`/api/desk/posts/${draft.id}`, {
    data: { version: draft.version, summary: 'How to save for a deposit.' },
  });
  expect(redrafted.status(), await redrafted.text()).toBe(200);
  const first = await publish(page.request, ((await redrafted.json()) as { post: PostJson }).post);
  const changed = await page.request.patch(`/api/desk/posts/${first.id}`, {
    data: {
      version: first.version,
      title: 'Saving For A Deposit, Faster',
      body: 'Open an account.\n\nPut a tenth of your pay in every month.\n\nDo not touch it.',
    },
  });
  expect(changed.status(), await changed.text()).toBe(200);

  await page.goto(`/desk/posts/${first.id}`);
  await page.locator('summary', { hasText: 'History' }).click();
  const history = page.locator('.post-editor__revisions');
  await expect(
    history.locator('li').filter({ hasText: `Version ${first.version} · published ·` }),
  ).toHaveCount(1);
  await expect(history.locator('li').filter({ hasText: 'Version 1 · draft ·' })).toHaveCount(1);

  await page.getByRole('button', { name: `Compare version ${first.version} with now` }).click();
  const diff = page.getByRole('region', { name: `Version ${first.version} against now` });
  await expect(diff.locator('dt', { hasText: 'Title' })).toBeVisible();
  await expect(diff.locator('dd').first()).toHaveText(
    'Saving For A Deposit → Saving For A Deposit, Faster',
  );
  const body = diff.getByLabel('Body: then and now');
  await expect(body.locator('del')).toHaveText(['− Put a little in every week.']);
  await expect(body.locator('ins')).toHaveText(['+ Put a tenth of your pay in every month.']);
  await expect(body).toContainText('Open an account.');
  await diff.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('history-diff.png'), fullPage: true });

  await page.getByRole('button', { name: `Restore version ${first.version}` }).click();
  await expect(page.getByRole('alertdialog')).toContainText(
    `The post is live: version ${first.version} goes live at once at`,
  );
  await page.getByRole('button', { name: 'Yes, restore' }).click();
  await expect(page.getByText(`Restored version ${first.version} (as a new save).`)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue('Saving For A Deposit');
  const reader = await page.request.get(first.path);
  expect(await reader.text()).toContain('Put a little in every week.');
});

test('on a phone the toolbar is one row and Save stays in reach after a long body', async ({
  page,
  mailbox,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  await signInAs(page, mailbox, editor);
  await page.goto('/desk/posts/new');
  await page.getByRole('textbox', { name: 'Title' }).fill('Written On The Bus');
  await page.getByRole('textbox', { name: 'Body' }).click();
  for (let n = 1; n <= 30; n += 1) {
    await page.keyboard.insertText(`Paragraph ${n}: a sentence long enough to wrap on a phone.`);
    await page.keyboard.press('Enter');
  }
  await expect(page.getByText('Paragraph 30:')).toBeVisible();

  // The page is long, and the writer is far down it, at the end of the body.
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(
    PHONE.height * 2,
  );
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(PHONE.height);
  const save = actions(page).getByRole('button', { name: 'Save draft' });
  await expect(save).toBeInViewport({ ratio: 1 });
  await expect(actions(page).getByRole('button', { name: 'Preview' })).toBeInViewport();
  await expect(
    actions(page).getByRole('button', { name: 'Publish', exact: true }),
  ).toBeInViewport();

  // The toolbar: one row of tools (44 px high, with its padding), scrolled sideways, never wider
  // than the screen; nor is the page.
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  const box = await toolbar.boundingBox();
  expect(box?.height).toBeLessThan(60);
  expect(box?.width).toBeLessThanOrEqual(PHONE.width);
  expect(await toolbar.evaluate((bar) => bar.scrollWidth > bar.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  await page.screenshot({ path: testInfo.outputPath('phone-editor.png') });

  await save.click();
  await expect(page).toHaveURL(/\/desk\/posts\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  await expect.poll(async () => (await stored(page, id)).body).toContain('Paragraph 30:');
});
