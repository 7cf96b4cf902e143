import type { Page } from '@playwright/test';
import { expect, STAFF, test } from './fixtures.js';
import { waitForHydration } from './support/visit.js';

// Comments under an article in the real built site (docs/comments.md), at phone and desktop
// width: a member names themself and comments, and it shows at once; a visitor reads it with the
// author's name, also without scripts; a hostile comment shows as words and runs nothing; reply,
// edit, like, report, delete with its placeholder; the desk hides a reported comment and the page
// no longer shows it; a members-only article's comments stay out of its HTML.

const OWNER = { email: STAFF.commentsOwner, password: 'correct horse battery staple' };

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

/** Publishes an article from the desk's API as `owner`; answers its id and address. */
async function publishArticle(
  owner: Page,
  slug: string,
  title: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; path: string }> {
  const created = await owner.request.post('/api/desk/posts', {
    data: {
      kind: 'article',
      slug,
      title,
      category: 'Health',
      summary: 'What neighbours say to each other about it.',
      readingMinutes: 3,
      body: 'Talk to the people next door.',
      ...extra,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { post } = await created.json();
  const published = await owner.request.post(`/api/desk/posts/${post.id}/publish`, {
    data: { version: post.version },
  });
  expect(published.status(), await published.text()).toBe(200);
  return { id: post.id, path: post.path };
}

/** A comment on the page, found by words it shows. */
const commentWith = (page: Page, text: string) =>
  page.locator('article.comment').filter({ hasText: text });

/** The page does not scroll sideways: nothing is wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'wider than the screen by').toBeLessThanOrEqual(0);
}

for (const { name, width, height } of WIDTHS) {
  test(`a member comments, a visitor reads it, the desk hides it (${name})`, async ({
    page,
    browser,
    site,
    signedInElsewhere,
    registered,
  }, testInfo) => {
    test.setTimeout(120_000);
    const owner = await signedInElsewhere(OWNER);
    const article = await publishArticle(owner, `talk-next-door-${name}`, 'Talk Next Door');
    const comp = await owner.request.post(`/api/desk/members/${registered.id}/comps`, {
      data: { until: '2027-11-24', reason: 'A commenter of the comments test' },
    });
    expect(comp.status(), await comp.text()).toBe(200);

    // Nothing a comment says may run: a dialog anywhere fails the test.
    const dialogs: string[] = [];
    const watch = (watched: Page) =>
      watched.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
    watch(page);

    // The member: asked for a name first, then writes; the comment shows at once.
    await page.setViewportSize({ width, height });
    await page.goto(article.path);
    const section = page.locator(`#comments-${article.id}`);
    await expect(section.getByRole('heading', { name: 'No comments yet' })).toBeVisible();
    await section.getByLabel('Your name').fill(`Ella ${name}`);
    await section.getByRole('button', { name: 'Save name' }).click();
    const box = section.getByLabel('Comment', { exact: true });
    await box.fill(
      'Knock on **one** door this week: https://example.org/a-very-long-address-that-must-wrap-on-a-phone-screen-without-scrolling-sideways',
    );
    await section.getByRole('button', { name: 'Post comment' }).click();
    const first = commentWith(page, 'door this week');
    await expect(first).toBeVisible();
    await expect(first.getByText(`Ella ${name}`)).toBeVisible();
    await expect(first.locator('.comment__body strong', { hasText: /^one$/ })).toBeVisible();
    await expect(box).toHaveValue('');
    await expect(section.getByRole('heading', { name: '1 comment' })).toBeVisible();

    // A hostile comment: its words show, nothing in it runs or loads.
    await box.fill(
      'Before the script.\n\n<script>alert(1)</script>\n\nLook: <img src=x onerror="alert(2)"> and [click me](javascript:alert(3))',
    );
    await section.getByRole('button', { name: 'Post comment' }).click();
    const hostile = commentWith(page, 'Before the script.');
    await expect(hostile).toBeVisible();
    await expect(hostile.getByText('click me')).toBeVisible();
    await expect(hostile.locator('img, script, a[href^="javascript"]')).toHaveCount(0);

    // A reply goes into the first comment's thread; an edit says "edited"; a like is pressed.
    await first.getByRole('button', { name: 'Reply' }).click();
    await page.getByLabel(`Reply to Ella ${name}`).fill('Replying in the thread.');
    await page.getByRole('button', { name: 'Post reply' }).click();
    const thread = page.getByRole('list', { name: `Replies to Ella ${name}` });
    await expect(thread.getByText('Replying in the thread.')).toBeVisible();
    const reply = commentWith(page, 'Replying in the thread.');
    await reply.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Edit your comment').fill('Replying in the thread, edited.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const edited = commentWith(page, 'Replying in the thread, edited.');
    await expect(edited.getByText('edited', { exact: true })).toBeVisible();
    const like = first.getByRole('button', { name: /^Like/ }).first();
    await expect(like).toHaveAttribute('aria-pressed', 'false');
    await like.click();
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await expect(like).toContainText('1');
    await like.click();
    await expect(like).toHaveAttribute('aria-pressed', 'false');
    await expect(like).toContainText('0');
    await expectNoSidewaysScroll(page);
    await section.screenshot({ path: testInfo.outputPath(`comments-member-${name}.png`) });
    await page.screenshot({
      path: test.info().outputPath(`h4-article-${name}.png`),
      fullPage: true,
    });

    // A visitor, in a browser of their own: the comments with their authors' names.
    const visitorContext = await browser.newContext({
      baseURL: site.url,
      viewport: { width, height },
    });
    const visitor = await visitorContext.newPage();
    watch(visitor);
    const answer = await visitor.goto(article.path);
    expect(await answer?.text()).toContain('door this week');
    const read = visitor.locator(`#comments-${article.id}`);
    await expect(read.getByRole('heading', { name: '3 comments' })).toBeVisible();
    await expect(commentWith(visitor, 'door this week').getByText(`Ella ${name}`)).toBeVisible();
    await expect(
      read.getByRole('link', { name: 'Sign in to join the conversation' }),
    ).toBeVisible();
    await expect(read.getByLabel('Comment', { exact: true })).toHaveCount(0);
    await expectNoSidewaysScroll(visitor);
    await visitorContext.close();

    // Without scripts: the page's own HTML reads the same.
    const plainContext = await browser.newContext({
      baseURL: site.url,
      viewport: { width, height },
      javaScriptEnabled: false,
    });
    const plain = await plainContext.newPage();
    await plain.goto(article.path);
    await expect(plain.getByRole('heading', { name: '3 comments' })).toBeVisible();
    await expect(commentWith(plain, 'door this week').getByText(`Ella ${name}`)).toBeVisible();
    await expect(plain.getByText('Replying in the thread, edited.')).toBeVisible();
    await plainContext.close();

    // The owner reports the member's first comment, as any reader who may comment can.
    const ownerName = owner.getByLabel('Your name');
    await owner.goto(article.path);
    watch(owner);
    // Named in the first run: straight to the box then.
    await expect(ownerName.or(owner.getByLabel('Comment', { exact: true }))).toBeVisible();
    if (await ownerName.isVisible()) {
      await ownerName.fill('The Publisher');
      await owner.getByRole('button', { name: 'Save name' }).click();
    }
    const reported = commentWith(owner, 'door this week');
    await reported.getByRole('button', { name: 'Report' }).first().click();
    const dialog = owner.getByRole('dialog', { name: `Report Ella ${name}’s comment` });
    await dialog.getByLabel('Why should the publisher look at it?').fill('Spam link');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(dialog).toBeHidden();
    await expect(reported.getByText('Reported. Thank you.').first()).toBeVisible();

    // The member deletes the first comment: its reply keeps a placeholder in its place.
    await page.reload();
    await waitForHydration(page, `#comments-${article.id} h2`);
    const own = commentWith(page, 'door this week');
    await own.getByRole('button', { name: 'Delete' }).first().click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect(page.getByText('This comment was deleted.')).toBeVisible();
    await expect(commentWith(page, 'door this week')).toHaveCount(0);

    // The desk: the reported comments first, with the reason; hiding one takes it off the page.
    await owner.setViewportSize({ width, height });
    await owner.goto('/desk/comments?status=reported');
    const card = owner
      .locator('.desk-comment')
      .filter({ hasText: 'Spam link' })
      .filter({ hasText: `Ella ${name}` });
    await expect(card).toBeVisible();
    await expectNoSidewaysScroll(owner);
    await owner.screenshot({ path: test.info().outputPath(`h4-desk-${name}.png`), fullPage: true });
    await owner.goto('/desk/comments');
    const hostileCard = owner
      .locator('.desk-comment')
      .filter({ hasText: 'Before the script.' })
      .filter({ hasText: `Ella ${name}` });
    await hostileCard.getByRole('button', { name: /^Hide/ }).click();
    await expect(owner.locator('.desk__done')).toContainText('Hidden');
    const after = await browser.newContext({ baseURL: site.url, viewport: { width, height } });
    const later = await after.newPage();
    await later.goto(article.path);
    await expect(later.getByText('Replying in the thread, edited.')).toBeVisible();
    await expect(later.getByText('Before the script.')).toHaveCount(0);
    await after.close();

    expect(dialogs, 'dialogs a comment opened').toEqual([]);
  });
}

test('a members-only article’s comments stay out of its HTML, and reach its members', async ({
  page,
  browser,
  site,
  signedInElsewhere,
  registered,
}) => {
  const owner = await signedInElsewhere(OWNER);
  const article = await publishArticle(owner, 'members-talk-here', 'Members Talk Here', {
    visibility: 'members',
    body: 'Everyone reads this.\n\n<!-- members-only -->\n\nMembers read this.',
  });
  const comp = await owner.request.post(`/api/desk/members/${registered.id}/comps`, {
    data: { until: '2027-11-24', reason: 'A member of the comments test' },
  });
  expect(comp.status(), await comp.text()).toBe(200);
  const named = await page.request.patch('/api/account/profile', { data: { name: 'Ida' } });
  expect(named.status(), await named.text()).toBe(200);
  const said = await page.request.post(`/api/posts/${article.id}/comments`, {
    data: { body: 'Only members read this comment.' },
  });
  expect(said.status(), await said.text()).toBe(201);

  const visitorContext = await browser.newContext({ baseURL: site.url });
  const visitor = await visitorContext.newPage();
  const answer = await visitor.goto(article.path);
  expect(await answer?.text()).not.toContain('Only members read this comment.');
  await expect(
    visitor.getByText('Those who may read all of this post read and write its comments.'),
  ).toBeVisible();
  await visitorContext.close();

  // The member's own copy carries no comments either; the browser asks for them.
  const own = await page.goto(article.path);
  expect(await own?.text()).not.toContain('Only members read this comment.');
  await expect(page.getByText('Only members read this comment.')).toBeVisible();
});

/** The comments' own chunk of the built client (loaded lazily, after the page). */
const COMMENTS_CODE = /\/assets\/comments-section-[\w-]+\.js$/;

test('each campaign and boycott folds its comments under it, at phone and desktop width', async ({
  page,
  signedInElsewhere,
  registered,
}) => {
  const owner = await signedInElsewhere(OWNER);
  const comp = await owner.request.post(`/api/desk/members/${registered.id}/comps`, {
    data: { until: '2027-11-24', reason: 'A commenter of the comments test' },
  });
  expect(comp.status(), await comp.text()).toBe(200);
  const named = await page.request.patch('/api/account/profile', { data: { name: 'Dolores' } });
  expect(named.status(), await named.text()).toBe(200);
  let waitFor: Promise<void> = Promise.resolve();
  const hold = () => {
    let release = () => {};
    waitFor = new Promise<void>((resolve) => (release = resolve));
    return { release };
  };
  await page.route(COMMENTS_CODE, async (route) => {
    await waitFor;
    await route.continue();
  });
  for (const [path, list, text] of [
    ['/direct-action', 'campaigns', 'Our garden has tomatoes now.'],
    ['/collective', 'boycotts', 'Still boycotting, thirty years on.'],
  ] as const) {
    const data = await page.request.get(`/api/site-data?path=${path}`);
    const posts = (await data.json())[list] as { id: number }[];
    const postId = posts[0]?.id;
    const said = await page.request.post(`/api/posts/${postId}/comments`, { data: { body: text } });
    expect(said.status(), await said.text()).toBe(201);
    for (const { name, width, height } of WIDTHS) {
      await page.setViewportSize({ width, height });
      // The comments' code loads after the page hydrates: held here until the reader has opened
      // them, as on a slow connection, the box still comes when it arrives.
      const held = hold();
      await page.goto(path, { waitUntil: 'domcontentloaded' });
      const folded = page.locator(`#comments-${postId}`);
      await expect(folded.getByText(text)).toBeHidden();
      await folded.locator('summary').click();
      held.release();
      await expect(folded.getByText(text)).toBeVisible();
      await expect(folded.getByText('Dolores')).toBeVisible();
      await expect(folded.getByLabel('Comment', { exact: true })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await folded.scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`h4-${list}-${name}.png`) });
    }
  }
});
