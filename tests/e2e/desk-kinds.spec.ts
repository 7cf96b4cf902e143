import type { Page } from '@playwright/test';
import { expect, signInAs, STAFF, test } from './fixtures.js';

// Every kind from the desk, and the lists (docs/publishing.md, "Writing and publishing"), at phone and desktop width: a campaign
// with its story made from the "New post" menu, by keyboard, and read on the site; a boycott
// made from the list filtered to boycotts and saved as a draft before it has any update; a
// filtered list bookmarked and opened again; a members-only article's card saying so; a writer
// landing on the posts list.

const { owner: OWNER, writer: WRITER } = STAFF;
const PASSWORD = 'correct horse battery staple';

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

const body = (page: Page) => page.getByRole('textbox', { name: 'Body' });
const saved = (page: Page) => expect(page.getByRole('status').first()).toContainText(/^Saved /);

for (const { name, width, height } of WIDTHS) {
  test(`an owner makes a campaign with its story from the New post menu, by keyboard, and readers find the story under its card (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
    await page.goto('/desk/posts');

    // The menu by keyboard: the button, Enter, Tab to Campaign, Enter.
    const menuButton = page.getByRole('button', { name: 'New post' });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    const kinds = page.getByRole('list', { name: 'Kind of post' });
    await expect(kinds.getByRole('link')).toHaveText([
      /^Article/,
      /^Campaign/,
      /^Boycott/,
      /^Resource list/,
      /^Page/,
      /^Newsletter issue/,
    ]);
    await page.screenshot({ path: testInfo.outputPath(`kind-chooser-${name}.png`) });
    // Escape closes it and gives the focus back.
    await page.keyboard.press('Escape');
    await expect(kinds).toBeHidden();
    await expect(menuButton).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(kinds.getByRole('link', { name: /^Campaign/ })).toBeFocused();
    await page.keyboard.press('Enter');

    await expect(page).toHaveURL(/\/desk\/posts\/new\?kind=campaign$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('New campaign');
    const title = `Fund the Night Bus (${name})`;
    await page.getByRole('textbox', { name: 'Title' }).fill(title);
    await body(page).click();
    await page.keyboard.type('Why we started: the last bus leaves at ten.');
    await page.getByLabel('Summary').fill('Keep the night bus running for shift workers.');
    await page.getByLabel('Campaign link').fill('https://nightbus.example.org/');
    await page.getByLabel('Address (slug)').fill(`night-bus-${name}`);
    // A campaign has a story to divide, so it can be for members.
    await expect(page.getByRole('group', { name: 'Who can read it' })).toBeVisible();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page).toHaveURL(/\/desk\/posts\/\d+$/);
    await saved(page);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, publish' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Campaign · published');

    await page.goto('/direct-action');
    const story = page
      .locator('.with-story')
      .filter({ has: page.getByRole('heading', { name: title }) })
      .getByRole('group');
    await story.getByText('The story behind it').click();
    await expect(story.getByText('Why we started: the last bus leaves at ten.')).toBeVisible();
    await page.screenshot({
      path: testInfo.outputPath(`campaign-story-${name}.png`),
      fullPage: true,
    });
  });

  test(`a boycott made from the list filtered to boycotts saves as a draft before it has any update (${name})`, async ({
    page,
    mailbox,
  }) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
    await page.goto('/desk/posts');
    await page.getByRole('combobox', { name: 'Kind', exact: true }).selectOption('boycott');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/desk\/posts\?kind=boycott$/);
    // Filtered to boycotts, New makes a boycott.
    await page.getByRole('link', { name: 'New boycott' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('New boycott');
    const title = `Skip the Fast Fashion Sale (${name})`;
    await page.getByRole('textbox', { name: 'Title' }).fill(title);
    await page
      .getByLabel('Why', { exact: true })
      .fill('They still will not publish their factories.');
    await body(page).click();
    await page.keyboard.type('It began with a thread of photos from the warehouse.');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page).toHaveURL(/\/desk\/posts\/\d+$/);
    await saved(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Boycott · draft');

    await page.getByRole('link', { name: '← Posts' }).click();
    await page.goto('/desk/posts?kind=boycott&status=draft');
    await expect(page.getByRole('link', { name: title })).toBeVisible();
  });

  test(`a filtered posts list lives in its address: reload, Back and a bookmark keep it (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
    const marker = `Pigeon ${name}`;
    for (const draft of [
      { kind: 'campaign', title: `${marker} Rescue Fund`, category: 'Direct Action' },
      { kind: 'article', title: `${marker} Feeding Guide`, category: 'Health' },
    ]) {
      const created = await page.request.post('/api/desk/posts', { data: draft });
      expect(created.status(), await created.text()).toBe(201);
    }

    await page.goto('/desk/posts');
    await page.getByLabel('Words in the title or text').fill(marker);
    await page.getByRole('combobox', { name: 'Kind', exact: true }).selectOption('campaign');
    await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('draft');
    await page.getByRole('button', { name: 'Search' }).click();
    const filtered = `/desk/posts?status=draft&kind=campaign&q=Pigeon+${name}`;
    await expect
      .poll(() => new URL(page.url()).pathname + new URL(page.url()).search)
      .toBe(filtered);
    const titles = page.getByRole('table', { name: 'Posts' }).getByRole('link');
    await expect(titles).toHaveText([`${marker} Rescue Fund`]);

    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Kind', exact: true })).toHaveValue('campaign');
    await expect(page.getByRole('combobox', { name: 'Status', exact: true })).toHaveValue('draft');
    await expect(page.getByLabel('Words in the title or text')).toHaveValue(marker);
    await expect(titles).toHaveText([`${marker} Rescue Fund`]);
    await page.screenshot({ path: testInfo.outputPath(`filtered-list-${name}.png`) });

    // Back to the whole list, Forward to the filtered one.
    await page.goBack();
    await expect(page.getByRole('combobox', { name: 'Kind', exact: true })).toHaveValue('');
    await expect(page.getByRole('table', { name: 'Posts' })).toContainText(
      `${marker} Feeding Guide`,
    );
    await page.goForward();
    await expect(page.getByRole('combobox', { name: 'Kind', exact: true })).toHaveValue('campaign');
    await expect(titles).toHaveText([`${marker} Rescue Fund`]);

    // The address bookmarked, opened in a new tab of the same browser.
    const bookmark = page.url();
    const tab = await page.context().newPage();
    await tab.goto(bookmark);
    await expect(tab.getByRole('combobox', { name: 'Status', exact: true })).toHaveValue('draft');
    await expect(tab.getByRole('table', { name: 'Posts' }).getByRole('link')).toHaveText([
      `${marker} Rescue Fund`,
    ]);
    await tab.close();
  });

  test(`a members-only article's card says so in its section's list, as search results do (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
    const title = `The Members Pension Memo (${name})`;
    const created = await page.request.post('/api/desk/posts', {
      data: {
        kind: 'article',
        title,
        slug: `members-pension-memo-${name}`,
        category: 'Wealth',
        summary: 'What the new rules mean for your pension.',
        readingMinutes: 3,
        visibility: 'members',
        body: 'The opening.\n\n<!-- members-only -->\n\nThe rest.',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { post } = await created.json();
    const published = await page.request.post(`/api/desk/posts/${post.id}/publish`, {
      data: { version: post.version },
    });
    expect(published.status(), await published.text()).toBe(200);

    await page.context().clearCookies();
    await page.goto('/wealth');
    const card = page.getByRole('article').filter({ has: page.getByRole('link', { name: title }) });
    await expect(card.getByText('Members only')).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`members-card-${name}.png`) });
  });
}

test('the posts list shows 50 posts a page, and Next and Previous move between pages', async ({
  page,
  mailbox,
}) => {
  await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
  for (let n = 1; n <= 52; n += 1) {
    const created = await page.request.post('/api/desk/posts', {
      data: { kind: 'article', title: `Heron Note ${n}`, category: 'Wealth' },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  await page.goto('/desk/posts?q=Heron+Note');
  const rows = page.getByRole('table', { name: 'Posts' }).getByRole('link');
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toHaveText('Heron Note 52');
  await expect(page.getByRole('button', { name: 'Previous page' })).toBeDisabled();
  await page.getByRole('button', { name: 'Next page' }).click();
  const second = page.getByRole('table', { name: 'Posts, page 2' }).getByRole('link');
  await expect(second).toHaveText(['Heron Note 2', 'Heron Note 1']);
  await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(rows).toHaveCount(50);
});

test('a writer opening the desk lands on the posts list', async ({ page, mailbox }) => {
  await signInAs(page, mailbox, { email: WRITER, password: PASSWORD });
  await page.goto('/desk');
  await expect(page).toHaveURL(/\/desk\/posts$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Desk' });
  await expect(nav.getByRole('link', { name: 'Posts' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Members' })).toHaveCount(0);
  // A writer's list keeps its filters in the address too.
  await page.getByRole('combobox', { name: 'Kind', exact: true }).selectOption('page');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/desk\/posts\?kind=page$/);
  await expect(page.getByRole('link', { name: 'New page' })).toBeVisible();
});
