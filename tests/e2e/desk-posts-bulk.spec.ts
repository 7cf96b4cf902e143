import type { Page } from '@playwright/test';
import type { PostJson } from '../../contract/posts.js';
import { expect, signInAs, STAFF, test } from './fixtures.js';
import { DESK_WIDTHS, expectNoSidewaysScroll } from './support/widths.js';

// Many posts at once from the desk's posts list (docs/desk.md), at phone and desktop width: an
// owner selects the posts a search finds by keyboard, moves them to another section, deletes one
// (it goes to the Trash), and restores it from the Trash as it was.

const PASSWORD = 'correct horse battery staple';

/** A published article in Wealth, made through the desk's API. */
async function publishArticle(page: Page, title: string): Promise<PostJson> {
  const created = await page.request.post('/api/desk/posts', {
    data: {
      kind: 'article',
      title,
      category: 'Wealth',
      summary: 'What a tenants’ union does, street by street.',
      readingMinutes: 3,
      body: 'Knock on every door once.\n',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { post } = (await created.json()) as { post: PostJson };
  const published = await page.request.post(`/api/desk/posts/${post.id}/publish`, {
    data: { version: post.version },
  });
  expect(published.status(), await published.text()).toBe(200);
  return ((await published.json()) as { post: PostJson }).post;
}

async function readPost(page: Page, id: number): Promise<PostJson> {
  const answer = await page.request.get(`/api/desk/posts/${id}`);
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { post: PostJson }).post;
}

for (const { name, width, height } of DESK_WIDTHS) {
  test(`an owner moves the posts a search finds, deletes one and restores it from the Trash (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    // Three actions, each waiting for the site to draw its change, and a page load after each.
    test.setTimeout(60_000);
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
    const word = `quokka${name}${Date.now()}`;
    const posts = [];
    for (const n of ['one', 'two', 'three']) {
      posts.push(await publishArticle(page, `Tenants ${word} ${n}`));
    }
    const [first] = posts as [PostJson, ...PostJson[]];
    await page.goto(`/desk/posts?q=${word}`);
    await expect(page.getByRole('checkbox', { name: /^Select Tenants/ })).toHaveCount(3);

    // By keyboard: Space ticks "Select all on this page", Tab reaches the bar's buttons.
    const all = page.getByRole('checkbox', { name: 'Select all on this page' });
    await all.focus();
    await page.keyboard.press('Space');
    await expect(all).toBeChecked();
    const bar = page.getByRole('group', { name: 'Act on the selected posts' });
    await expect(bar.getByText('3 posts selected')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`selected-${name}.png`), fullPage: true });
    await expectNoSidewaysScroll(page, width);

    const move = bar.getByRole('button', { name: 'Move to section…' });
    await move.focus();
    await page.keyboard.press('Enter');
    const section = bar.getByRole('combobox', { name: 'Section of articles' });
    await expect(section).toBeFocused();
    await expect(section).toBeEnabled();
    await section.selectOption({ label: 'Health' });
    await page.screenshot({ path: testInfo.outputPath(`move-${name}.png`), fullPage: true });
    await page.keyboard.press('Tab');
    await expect(bar.getByRole('button', { name: 'Move 3 posts' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Done: 3; skipped: 0.')).toBeVisible();
    for (const post of posts) {
      expect((await readPost(page, post.id)).path).toBe(`/health/${post.slug}`);
    }
    await page.screenshot({ path: testInfo.outputPath(`moved-${name}.png`), fullPage: true });

    // One post to the Trash, after a confirmation that says it can come back.
    await page.getByRole('checkbox', { name: `Select ${first.title}` }).check();
    await bar.getByRole('button', { name: 'Delete' }).click();
    await expect(bar.getByRole('alertdialog')).toContainText('They go to the Trash for 30 days');
    await page.screenshot({ path: testInfo.outputPath(`delete-${name}.png`), fullPage: true });
    await bar.getByRole('button', { name: 'Yes, move to the Trash' }).click();
    await expect(page.getByText('Done: 1; skipped: 0.')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: /^Select Tenants/ })).toHaveCount(2);
    expect((await page.request.get(`/health/${first.slug}`)).status()).toBe(410);

    await page.getByRole('link', { name: 'Trash', exact: true }).click();
    await expect(page).toHaveURL(/\/desk\/posts\?status=deleted$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trash');
    const row = page.getByRole('row').filter({ hasText: first.title });
    await expect(row).toContainText('Deleted');
    await expect(row).toContainText('restorable until');
    await page.getByRole('checkbox', { name: `Select ${first.title}` }).check();
    await page.screenshot({ path: testInfo.outputPath(`trash-${name}.png`), fullPage: true });
    await expectNoSidewaysScroll(page, width);
    await bar.getByRole('button', { name: 'Restore' }).click();
    await bar.getByRole('button', { name: 'Yes, restore' }).click();
    await expect(page.getByText('Done: 1; skipped: 0.')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: `Select ${first.title}` })).toHaveCount(0);

    const restored = await readPost(page, first.id);
    expect(restored.status).toBe('published');
    expect(restored.publishedAt).toBe(first.publishedAt);
    expect((await page.request.get(restored.path)).status()).toBe(200);
  });
}
