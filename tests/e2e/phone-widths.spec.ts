import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { PostJson } from '../../contract/posts.js';
import { haveMigrationSamples, sample } from '#test/migration-samples';
import { expect, signInAs, STAFF, test } from './fixtures.js';

// No page of the site is wider than a phone's 390 px screen, whatever a post holds: a word with
// no place to break, a long address, a wide code block, a wide table and a big photo (the
// repository's own post, tests/fixtures/phone-widths/wide-post.md), and WordPress's theme unit
// test where the migration samples sit beside the repository. Every page kind a reader or the
// desk opens with that content, measured at 390 px; each drawn at 390 and 1280 px.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const PASSWORD = 'correct horse battery staple';
const owner = { email: STAFF.owner, password: PASSWORD };

const WIDE_POST = new URL('../fixtures/phone-widths/wide-post.md', import.meta.url);
const LONG_TITLE =
  'Deposits, receipts and the Unreasonablylongcompoundwordthatnobodyhyphenatesbecauseitkeepsgoing';
const LONG_TAG = 'Tenancyagreementsandtheirsmallprintrules';
const WRITER_SLUG = 'phone-widths-writer';

/** A page to measure: where it is, and what shows once it is drawn. */
interface Stop {
  name: string;
  path: string;
  ready: (page: Page) => Locator;
}
const heading = (name?: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { level: 1, ...(name !== undefined && { name }) }).first();

/**
 * How wide the page is at 390 px (`document.documentElement.scrollWidth`), and what sticks out
 * past the screen's edge, for the failure's message: the innermost elements whose right edge is
 * beyond it and that no box of their own scrolls or clips.
 */
async function scrollWidthOf(page: Page, stop: Stop): Promise<{ width: number; wide: string[] }> {
  await page.setViewportSize(PHONE);
  await page.goto(stop.path);
  await expect(stop.ready(page)).toBeVisible();
  return page.evaluate((limit) => {
    const sticksOut = (element: Element) => element.getBoundingClientRect().right > limit + 0.5;
    const contained = (element: Element) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') return true;
      }
      return false;
    };
    const wide = [...document.body.querySelectorAll('*')]
      .filter((element) => sticksOut(element) && !contained(element))
      .filter((element) => ![...element.children].some(sticksOut))
      .slice(0, 6)
      .map((element) => {
        const name = `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).trim().replace(/\s+/g, '.')}` : ''}`;
        return `${name} (right edge ${Math.round(element.getBoundingClientRect().right)})`;
      });
    return { width: document.documentElement.scrollWidth, wide };
  }, PHONE.width);
}

/**
 * Measures every stop at 390 px (softly: each page's figure is reported even when another fails),
 * draws each at 390 and 1280 px, and attaches the figures to the test's report.
 */
async function measure(page: Page, stops: readonly Stop[], label: string) {
  const figures: string[] = [];
  for (const stop of stops) {
    const { width, wide } = await scrollWidthOf(page, stop);
    figures.push(`${stop.name} (${stop.path}): ${width}`);
    expect
      .soft(width, `${stop.name} (${stop.path}) at 390 px, wider: ${wide.join(', ')}`)
      .toBeLessThanOrEqual(PHONE.width);
    const file = stop.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    await page.screenshot({ path: test.info().outputPath(`${file}-390.png`), fullPage: true });
    await page.setViewportSize(DESKTOP);
    await expect(stop.ready(page)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`${file}-1280.png`), fullPage: true });
  }
  console.log(`scrollWidth at 390 px, ${label}:\n${figures.join('\n')}`);
  await test.info().attach(`scrollWidth at 390 px, ${label}`, {
    body: figures.join('\n'),
    contentType: 'text/plain',
  });
}

/** A photo far larger than any screen: 3000×1200. */
function bigPhoto(): Promise<Buffer> {
  return sharp({
    create: { width: 3000, height: 1200, channels: 3, background: { r: 40, g: 90, b: 140 } },
  })
    .jpeg()
    .toBuffer();
}

async function uploadPhoto(request: APIRequestContext): Promise<string> {
  const uploaded = await request.post('/api/desk/uploads', {
    multipart: {
      file: { name: 'harbour.jpg', mimeType: 'image/jpeg', buffer: await bigPhoto() },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  return ((await uploaded.json()) as { image: { url: string } }).image.url;
}

/** The post of the fixture, published in Wealth with a long title, tag and author's name. */
async function publishWidePost(request: APIRequestContext): Promise<PostJson> {
  const image = await uploadPhoto(request);
  const body = (await readFile(WIDE_POST, 'utf8')).replace(
    '{{image}}',
    `![A harbour at dawn, far wider than a phone](${image} "The harbour from the Seawallpromenadeobservationdeckattheendofthepier")`,
  );
  const created = await request.post('/api/desk/posts', {
    data: {
      kind: 'article',
      title: LONG_TITLE,
      slug: `wide-things-${Date.now()}`,
      category: 'Wealth',
      summary: 'A summary with Anotherwordthatgoesonandonwithoutanyspaceatallforaphone in it.',
      readingMinutes: 3,
      tags: [LONG_TAG],
      authors: [WRITER_SLUG],
      body,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { post } = (await created.json()) as { post: PostJson };
  const published = await request.post(`/api/desk/posts/${post.id}/publish`, {
    data: { version: post.version },
  });
  expect(published.status(), await published.text()).toBe(200);
  return ((await published.json()) as { post: PostJson }).post;
}

test('every page kind stays within a 390 px screen with a post of words, addresses, code, tables and photos too wide for it', async ({
  page,
  mailbox,
  signedInElsewhere,
}) => {
  test.slow();
  // The writer credited: a name with no place to break, for the author's page.
  const writer = await signedInElsewhere({ email: STAFF.writer, password: PASSWORD });
  const profile = await writer.request.patch('/api/desk/profile', {
    data: {
      name: 'Bartholomew Stonecutter-Longfellowhousewrightapprenticeshipfund',
      slug: WRITER_SLUG,
      bio: 'Writes about https://lettings.example.org/tenancies/2024/the-longest-address-a-letting-agent-ever-printed-on-a-form',
      picture: null,
      links: [],
    },
  });
  expect(profile.status(), await profile.text()).toBe(200);

  await signInAs(page, mailbox, owner);
  const post = await publishWidePost(page.request);
  const articlePath = `/wealth/${post.slug}`;
  const topicPath = `/topics/${LONG_TAG.toLowerCase()}`;

  await measure(
    page,
    [
      { name: 'Home', path: '/', ready: (p) => p.getByRole('main') },
      { name: 'Article', path: articlePath, ready: heading(LONG_TITLE) },
      { name: 'Section list', path: '/wealth', ready: heading() },
      {
        name: 'Search results',
        path: `/search?q=${encodeURIComponent('deposits receipts')}`,
        ready: (p) => p.getByRole('link', { name: new RegExp(LONG_TITLE.slice(0, 20)) }).first(),
      },
      { name: 'Topic', path: topicPath, ready: heading() },
      { name: 'Author', path: `/authors/${WRITER_SLUG}`, ready: heading() },
      { name: 'Newsletter archive', path: '/newsletter', ready: heading() },
      { name: 'Account', path: '/account', ready: heading() },
      { name: 'Desk posts list', path: '/desk/posts', ready: heading('Posts') },
      {
        name: 'Desk editor',
        path: `/desk/posts/${post.id}`,
        ready: (p) => p.getByRole('textbox', { name: 'Body' }),
      },
    ],
    "the repository's wide post",
  );
});

test('the WordPress theme unit test’s wide posts and their section list stay within a 390 px screen', async ({
  page,
  mailbox,
}) => {
  test.skip(
    !haveMigrationSamples,
    'The WordPress theme unit test sample sits beside the repository, never in it (GPL)',
  );
  test.slow();
  await signInAs(page, mailbox, owner);
  const file = await readFile(sample('wordpress/theme-unit-test-data.xml'));
  const started = await page.request.post('/api/desk/imports', {
    multipart: {
      source: 'wordpress',
      section: 'Health',
      file: { name: 'theme-unit-test-data.xml', mimeType: 'text/xml', buffer: file },
    },
  });
  expect(started.status(), await started.text()).toBe(202);
  const { import: job } = (await started.json()) as { import: { id: string } };
  // How the import goes, as the Import page polls it: its status, or what went wrong.
  const importStatus = async () => {
    const response = await page.request.get(`/api/desk/imports/${job.id}`);
    const answer = (await response.json()) as {
      import?: { status: string; error: string | null };
      error?: { message: string };
    };
    if (!answer.import) return `${response.status()}: ${answer.error?.message}`;
    return answer.import.error
      ? `${answer.import.status}: ${answer.import.error}`
      : answer.import.status;
  };
  await expect.poll(importStatus, { timeout: 60_000 }).toBe('done');

  const pathOf = async (title: string) => {
    const found = await page.request.get(`/api/desk/posts?q=${encodeURIComponent(title)}`);
    const { posts } = (await found.json()) as { posts: { title: string; slug: string }[] };
    const post = posts.find((each) => each.title === title);
    expect(post, title).toBeDefined();
    return `/health/${post?.slug}`;
  };
  const markup = await pathOf('Markup: HTML Tags and Formatting');
  const longTitle =
    'Taumatawhakatangihangakoauauotamateaturipukakapikimaungahoronukupokaiwhenuakitanatahu';
  const overflowing = await pathOf(longTitle);
  await measure(
    page,
    [
      {
        name: 'Theme unit test, HTML tags and formatting',
        path: markup,
        ready: heading('Markup: HTML Tags and Formatting'),
      },
      { name: 'Theme unit test, long title', path: overflowing, ready: heading(longTitle) },
      {
        name: 'Theme unit test, section list',
        path: '/health',
        ready: (p) => p.getByRole('link', { name: longTitle }).first(),
      },
    ],
    "WordPress's theme unit test",
  );
});
