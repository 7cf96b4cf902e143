import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { DeskPostAnalytics } from '../../contract/analytics.js';
import type { PostJson } from '../../contract/posts.js';
import { expect, signInAs, STAFF, test } from './fixtures.js';
import { tokenFromMail, waitForMail } from '#test/registration';
import { waitForHydration } from './support/visit.js';
import { openDeskMenu } from './support/desk-menu.js';

// The site's own analytics (docs/analytics.md) in a real browser: a reader's page load counts one
// view and a move within the site one more; the desk's Analytics page draws its chart at desktop
// and phone width; a writer sees their own posts without money; a visitor gets the 404 page.

const { owner: OWNER, writer: WRITER } = STAFF;
const PASSWORD = 'correct horse battery staple';
const today = () => new Date().toISOString().slice(0, 10);

/** A published article in Wealth, made and published from the desk's API by `publisher`. */
async function publishArticle(
  publisher: APIRequestContext,
  title: string,
  author: APIRequestContext = publisher,
): Promise<PostJson> {
  const slug = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Date.now()}`;
  const created = await author.post('/api/desk/posts', {
    data: {
      kind: 'article',
      title,
      slug,
      category: 'Wealth',
      summary: `What ${title} is about.`,
      readingMinutes: 2,
      body: 'A paragraph for the analytics tests.',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { post } = (await created.json()) as { post: PostJson };
  const published = await publisher.post(`/api/desk/posts/${post.id}/publish`, {
    data: { version: post.version },
  });
  expect(published.status(), await published.text()).toBe(200);
  return ((await published.json()) as { post: PostJson }).post;
}

/** A post's views today, as the desk's API tells an owner. */
async function viewsOf(owner: APIRequestContext, postId: number): Promise<number> {
  const answer = await owner.get(
    `/api/desk/analytics/posts/${postId}?from=${today()}&to=${today()}`,
  );
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as DeskPostAnalytics).totals.views;
}

/**
 * A reader in a browser of their own (no session, no cookie of the staff), with Do Not Track on
 * if asked, as the browser's setting makes it; `beacons` lists what its pages send to
 * /api/events.
 */
async function readerBrowser(browser: Browser, baseURL: string, { doNotTrack = false } = {}) {
  const context = await browser.newContext({ baseURL });
  if (doNotTrack) {
    await context.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' }),
    );
  }
  const page = await context.newPage();
  const beacons: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/events')) beacons.push(request.method());
  });
  return { page, beacons, close: () => context.close() };
}

/** Nothing wider than the window: no sideways scroll. */
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('a reader’s page load counts one view, and a move to another page within the site one more', async ({
  page,
  browser,
  mailbox,
  site,
}) => {
  await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
  const first = await publishArticle(page.request, 'Heron Savings Ledger');
  const second = await publishArticle(page.request, 'Heron Pension Notes');
  const firstPath = `/wealth/${first.slug}`;

  const reader = await readerBrowser(browser, site.url);
  try {
    const { page: readerPage, beacons } = reader;
    await readerPage.goto(firstPath);
    await expect(readerPage.getByRole('heading', { level: 1 })).toHaveText(first.title);
    await expect.poll(() => viewsOf(page.request, first.id), { timeout: 10_000 }).toBe(1);
    // Exactly one: nothing more arrives later (events are written about every second).
    await readerPage.waitForTimeout(2_500);
    expect(await viewsOf(page.request, first.id)).toBe(1);
    expect(await viewsOf(page.request, second.id)).toBe(0);
    expect(beacons).toEqual(['POST']);

    // A move within the page (#) is no view; a move to the section's list and on to the other
    // article is, without loading a page (the marker on the window survives).
    await waitForHydration(readerPage, 'nav a[href="/wealth"]');
    await readerPage.evaluate(() => {
      (window as Window & { stayed?: boolean }).stayed = true;
      window.location.hash = '#nothing-here';
    });
    await readerPage.locator('nav a[href="/wealth"]').first().click();
    await readerPage.getByRole('link', { name: second.title }).first().click();
    await expect(readerPage.getByRole('heading', { level: 1 })).toHaveText(second.title);
    expect(await readerPage.evaluate(() => (window as Window & { stayed?: boolean }).stayed)).toBe(
      true,
    );
    await expect.poll(() => viewsOf(page.request, second.id), { timeout: 10_000 }).toBe(1);
    await readerPage.waitForTimeout(2_500);
    expect(await viewsOf(page.request, second.id)).toBe(1);
    expect(await viewsOf(page.request, first.id)).toBe(1);
    // The list and the second article: one beacon each, none for the `#`.
    expect(beacons).toEqual(['POST', 'POST', 'POST']);
  } finally {
    await reader.close();
  }
});

test('a browser that asks not to be tracked sends nothing and is not counted', async ({
  page,
  browser,
  mailbox,
  site,
}) => {
  await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
  const reader = await readerBrowser(browser, site.url, { doNotTrack: true });
  try {
    const post = await publishArticle(page.request, 'Heron Quiet Reading');
    const { page: readerPage, beacons } = reader;
    await readerPage.goto(`/wealth/${post.slug}`);
    await expect(readerPage.getByRole('heading', { level: 1 })).toHaveText(post.title);
    await readerPage.waitForTimeout(2_500);
    expect(beacons).toEqual([]);
    expect(await viewsOf(page.request, post.id)).toBe(0);
  } finally {
    await reader.close();
  }
});

for (const { name, width, height } of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const) {
  test(`the Analytics page draws views and visitors by day, the totals and the posts (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
    const post = await publishArticle(page.request, `Heron Chart Check ${name}`);
    await page.goto(`/wealth/${post.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
    await expect.poll(() => viewsOf(page.request, post.id), { timeout: 10_000 }).toBe(1);

    await page.goto('/desk');
    await (await openDeskMenu(page)).getByRole('link', { name: 'Analytics' }).click();
    await page
      .getByRole('navigation', { name: 'Range' })
      .getByRole('link', { name: '90 days' })
      .click();
    await expect(page).toHaveURL(/\/desk\/analytics\?range=90$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Analytics');
    const chart = page.getByRole('img', { name: /^Over 90 days, [\d,]+ views by [\d,]+ visitors/ });
    await expect(chart.locator('canvas')).toBeVisible();
    const box = await chart.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(width / 2);
    await expect(page.getByRole('list', { name: 'Totals' })).toContainText('revenue');
    await expect(page.getByRole('row', { name: new RegExp(post.title) })).toBeVisible();
    expect(await noSidewaysScroll(page)).toBe(true);
    await page.screenshot({ path: testInfo.outputPath(`analytics-${name}.png`), fullPage: true });
    await page.screenshot({
      path: test.info().outputPath(`h8-analytics-${width}.png`),
      fullPage: true,
    });
    await page.getByRole('region', { name: 'Posts' }).screenshot({
      path: test.info().outputPath(`h8-analytics-${width}-posts.png`),
    });
    await page.screenshot({ path: test.info().outputPath(`h8-analytics-${width}-top.png`) });

    // The post's editor page shows its own figures.
    await page.getByRole('link', { name: post.title }).first().click();
    const figures = page.getByRole('region', { name: 'Last 30 days' });
    await expect(figures.getByText('Views')).toBeVisible();
    await expect(figures.getByText('Paid conversions')).toBeVisible();
    await figures.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`h8-editor-figures-${width}.png`) });
  });
}

test('a writer sees the views of their own posts and no money', async ({
  page,
  mailbox,
  signedInElsewhere,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, mailbox, { email: WRITER, password: PASSWORD });
  const owner = await signedInElsewhere({ email: OWNER, password: PASSWORD });
  const post = await publishArticle(owner.request, 'Heron Writer Piece', page.request);
  // Nobody has read it yet: the page says so in words.
  await page.goto('/desk/analytics?range=7');
  await expect(page.getByRole('main')).toContainText('No views counted in these 7 days.');
  await page.screenshot({ path: test.info().outputPath('h8-analytics-empty-390.png') });
  await owner.goto(`/wealth/${post.slug}`);
  await expect.poll(() => viewsOf(owner.request, post.id), { timeout: 10_000 }).toBe(1);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Analytics');
  await expect(page.getByRole('row', { name: new RegExp(post.title) })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main).toContainText('Your posts');
  await expect(main).not.toContainText(/revenue|signups|paid conversions/i);
  expect(await noSidewaysScroll(page)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('analytics-writer.png'), fullPage: true });
  await page.screenshot({
    path: test.info().outputPath('h8-analytics-writer-390.png'),
    fullPage: true,
  });
});

test('an issue’s opens and clicks show on its Mail it panel', async ({
  page,
  browser,
  mailbox,
  site,
}, testInfo) => {
  const link = 'https://example.org/heron-report?part=2';
  const reader = `heron-${Date.now()}@example.org`;
  // A reader signs up and confirms, as the mailed link's page does.
  const asked = await page.request.post('/api/newsletter/subscribe', { data: { email: reader } });
  expect(asked.status(), await asked.text()).toBe(202);
  const confirmation = await waitForMail(mailbox, reader);
  const confirmed = await page.request.post('/api/newsletter/confirm', {
    data: { token: tokenFromMail(confirmation.text, '/newsletter/confirm') },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);

  await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
  const created = await page.request.post('/api/desk/posts', {
    data: {
      kind: 'newsletter',
      slug: `heron-letter-${Date.now()}`,
      title: 'The Heron Letter',
      summary: 'What the herons did this month.',
      body: `Read [the second part](${link}) first.`,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { post } = (await created.json()) as { post: PostJson };
  const published = await page.request.post(`/api/desk/posts/${post.id}/publish`, {
    data: { version: post.version },
  });
  expect(published.status(), await published.text()).toBe(200);
  const statusUrl = `/api/desk/posts/${post.id}/newsletter`;
  const { status } = (await (await page.request.get(statusUrl)).json()) as {
    status: { recipients: number };
  };
  const sent = await page.request.post(`${statusUrl}/send`, {
    data: { recipients: status.recipients },
  });
  expect(sent.status(), await sent.text()).toBe(202);

  // The reader's mail client loads the image and the reader follows the link.
  const issue = await waitForMail(mailbox, reader, 2, 15_000);
  const html = (mailbox.mailsTo(reader)[1]?.html ?? '').replace(/&#(\d+);/g, (_, code: string) =>
    String.fromCharCode(Number(code)),
  );
  expect(issue.text).toContain(link);
  const pixel = /<img src="([^"]*\/api\/newsletter\/o\/[^"]*)"/.exec(html)?.[1] ?? '';
  const click = /<a href="([^"]*\/api\/newsletter\/c\/[^"]*)"/.exec(html)?.[1] ?? '';
  const mailClient = await browser.newContext();
  try {
    const image = await mailClient.request.get(pixel.replace(/^https?:\/\/[^/]+/, site.url));
    expect(image.headers()['content-type']).toBe('image/gif');
    await image.body();
    const followed = await mailClient.request.get(click.replace(/^https?:\/\/[^/]+/, site.url), {
      maxRedirects: 0,
    });
    expect(followed.status()).toBe(302);
    expect(followed.headers().location).toBe(link);
    await followed.body();
  } finally {
    await mailClient.close();
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/desk/posts/${post.id}`);
  const panel = page.getByRole('region', { name: 'Mail it' });
  await expect(panel).toContainText('Opened by about 1 subscriber of');
  await expect(panel.getByRole('list', { name: 'Links followed' })).toContainText(
    `${link} 1 subscriber, 1 click`,
  );
  await panel.scrollIntoViewIfNeeded();
  expect(await noSidewaysScroll(page)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('issue-figures.png') });
  await page.screenshot({ path: test.info().outputPath('h8-issue-figures-390.png') });
});

test.describe('a visitor', () => {
  // The browser logs the 404 answer of the desk's address.
  test.use({ expectedConsoleErrors: [/status of 404/] });

  test('gets the site’s 404 page at /desk/analytics', async ({ page }) => {
    const response = await page.goto('/desk/analytics?range=30');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    const api = await page.request.get(`/api/desk/analytics?from=${today()}&to=${today()}`);
    expect(api.status()).toBe(404);
    await api.body();
  });
});
