import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { APIRequestContext, Page } from '@playwright/test';
import { EMBED_FRAME_HOSTS, type CardImage, type CardReading } from '../../contract/embeds.js';
import { saveCardReading } from '../../server/src/embeds/card-store.js';
import { CONTENT_SECURITY_POLICY } from '../../server/src/http/security-headers.js';
import { parseCsp } from '#test/raw-answers';
import { gradientPhoto } from '#test/test-photos';
import { createArticle, expect, publishPost, signInAs, STAFF, test } from './fixtures.js';
import { waitForHydration } from './support/visit.js';

// A post with a YouTube address alone on its line, a page's address and a recording, in the real
// built site: the reader's browser asks nothing of YouTube (nor any other site) until the reader
// presses the card's button, then frames the player the site's CSP allows; without JavaScript the
// card is a link to the video with its thumbnail. The browser has no network: the player's host is
// served by the test (page.route), and what matters is which addresses it asks for, and when. The
// site cannot reach YouTube either, so what it would have read of the addresses (the provider's
// oEmbed answer, the page's tags, each picture stored as an upload) is kept for it beforehand, as
// the desk's save keeps it.

const PASSWORD = 'correct horse battery staple';
const VIDEO = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
const PLAYER = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1';
const VIDEO_TITLE = 'Organising a tenants’ union';
const PAGE = 'https://www.example.org/reports/rent-2026';
const RECORDING_FILE = fileURLToPath(new URL('../fixtures/media/tone-3s.mp3', import.meta.url));

/** The post's address, published once for every test of the file. */
let postPath = '';
/** The video's stored thumbnail. */
let thumbnail: CardImage;
/** The recording's address, as its upload answered: it says its length. */
let recording = '';

/** A picture uploaded from the desk, as the site stores a card's thumbnail. */
async function uploadPicture(
  request: APIRequestContext,
  width: number,
  height: number,
): Promise<CardImage> {
  const buffer = await gradientPhoto(width, height, () => 160)
    .jpeg()
    .toBuffer();
  const uploaded = await request.post('/api/desk/uploads', {
    multipart: { file: { name: 'thumbnail.jpg', mimeType: 'image/jpeg', buffer } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const { image } = (await uploaded.json()) as { image: CardImage & { url: string } };
  return { src: image.url, width: image.width, height: image.height };
}

test.beforeAll(async ({ browser, site, mailbox }) => {
  // Signing up the owner, storing two pictures in every width and format and a recording: a minute
  // on a busy machine.
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: site.url });
  const owner = await context.newPage();
  await signInAs(owner, mailbox, { email: STAFF.owner, password: PASSWORD });
  thumbnail = await uploadPicture(owner.request, 640, 360);
  const readings: CardReading[] = [
    {
      url: VIDEO,
      state: 'read',
      card: {
        kind: 'embed',
        provider: 'youtube',
        player: PLAYER,
        title: VIDEO_TITLE,
        author: 'Housing Now',
        thumbnail,
        aspect: 16 / 9,
      },
    },
    {
      url: PAGE,
      state: 'read',
      card: {
        kind: 'bookmark',
        title: 'Rent in 2026',
        description: 'What tenants paid, city by city, and what they got for it.',
        siteName: 'Example Research',
        image: await uploadPicture(owner.request, 600, 315),
      },
    },
  ];
  const pool = new pg.Pool({ connectionString: site.databaseUrl, max: 1 });
  try {
    for (const reading of readings) await saveCardReading(pool, reading);
  } finally {
    await pool.end();
  }
  const uploaded = await owner.request.post('/api/desk/uploads', {
    multipart: {
      file: { name: 'tone.mp3', mimeType: 'audio/mpeg', buffer: await readFile(RECORDING_FILE) },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  recording = ((await uploaded.json()) as { url: string }).url;
  const draft = await createArticle(owner.request, {
    slug: `a-video-and-a-recording-${Date.now()}`,
    title: 'A video and a recording',
    body:
      'Watch the meeting first.\n\n' +
      `${VIDEO}\n\n` +
      `${PAGE}\n\n` +
      `![Episode 12](${recording} "Recorded at the union hall")\n\n` +
      'Then tell us what you think.\n',
  });
  postPath = (await publishPost(owner.request, draft)).path;
  await context.close();
});

/** Every address the page asks for, in order. */
function recordRequests(page: Page): URL[] {
  const asked: URL[] = [];
  page.on('request', (request) => asked.push(new URL(request.url())));
  return asked;
}

test('the page asks no other site for anything until the reader presses play, then frames the player', async ({
  page,
  site,
}) => {
  const asked = recordRequests(page);
  const ownHost = new URL(site.url).host;
  const elsewhere = () => asked.filter((url) => url.host !== ownHost).map(String);
  await page.route('https://www.youtube-nocookie.com/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Player</title><p>The stand-in player</p>',
    }),
  );
  const answer = await page.goto(postPath);
  expect(answer?.status()).toBe(200);

  // The page's policy frames the providers' players and nothing else.
  const csp = parseCsp(answer?.headers()['content-security-policy'] ?? '');
  expect(csp['frame-src']).toEqual(CONTENT_SECURITY_POLICY['frame-src']);
  const thirdParties = (csp['frame-src'] ?? []).filter(
    (source) => source !== "'self'" && !/^https:\/\/([*\w]+\.)*stripe\.com$/.test(source),
  );
  expect(thirdParties).toEqual(EMBED_FRAME_HOSTS.map((host) => `https://${host}`));

  const card = page.getByRole('figure').filter({ hasText: VIDEO_TITLE });
  const link = card.getByRole('link', { name: new RegExp(VIDEO_TITLE) });
  await expect(link).toHaveAttribute('href', VIDEO);
  await expect(link).toContainText('Housing Now · YouTube');
  const play = card.getByRole('button', { name: `Play ${VIDEO_TITLE} (loads YouTube)` });
  await expect(play).toBeVisible();
  await waitForHydration(page, '.embed__play');
  await page.waitForLoadState('networkidle');
  expect(elsewhere(), 'addresses of other sites asked for before the press').toEqual([]);
  await expect(page.locator('iframe')).toHaveCount(0);

  await play.click();
  const frame = card.locator('iframe');
  await expect(frame).toHaveAttribute('src', PLAYER);
  await expect(frame).toHaveAttribute('title', `${VIDEO_TITLE} (YouTube)`);
  await expect(frame).toHaveAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
  await expect(card.frameLocator('iframe').getByText('The stand-in player')).toBeVisible();
  await expect(frame).toBeFocused();
  expect(elsewhere()).toEqual([PLAYER]);
  // The link to the video stays under the player.
  await expect(link).toHaveAttribute('href', VIDEO);
});

test('without JavaScript the card is a link to the video with its thumbnail, and no button that could not work', async ({
  browser,
  site,
}) => {
  const context = await browser.newContext({ baseURL: site.url, javaScriptEnabled: false });
  const page = await context.newPage();
  const asked = recordRequests(page);
  expect((await page.goto(postPath))?.status()).toBe(200);
  const link = page.getByRole('link', { name: new RegExp(VIDEO_TITLE) });
  await expect(link).toHaveAttribute('href', VIDEO);
  const picture = link.locator('img');
  await expect(picture).toHaveAttribute('src', thumbnail.src);
  await picture.scrollIntoViewIfNeeded();
  await expect
    .poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: /Play/ })).toHaveCount(0);
  await expect(page.locator('iframe')).toHaveCount(0);
  const ownHost = new URL(site.url).host;
  expect(asked.filter((url) => url.host !== ownHost).map(String)).toEqual([]);
  await context.close();
});

test('a page elsewhere is a card of its title, description, site and image', async ({ page }) => {
  await page.goto(postPath);
  const link = page.getByRole('link', { name: /^Rent in 2026/ });
  await expect(link).toHaveAttribute('href', PAGE);
  await expect(link).toContainText('What tenants paid, city by city');
  await expect(link).toContainText('Example Research · example.org');
  await expect(link.locator('img')).toHaveAttribute(
    'src',
    /^\/uploads\/[a-z0-9]{20}-600x315\.webp$/,
  );
});

test('an uploaded recording is a player named by its title, with its length and caption', async ({
  page,
}) => {
  await page.goto(postPath);
  const figure = page.getByRole('figure').filter({ hasText: 'Episode 12' });
  expect(recording).toMatch(/^\/uploads\/[a-z0-9]{20}-3s\.mp3$/);
  await expect(figure.locator('.media__title')).toHaveText('Episode 12');
  await expect(figure.locator('time')).toHaveText('0:03');
  await expect(figure.locator('time')).toHaveAttribute('datetime', 'PT3S');
  await expect(figure.locator('figcaption')).toHaveText('Recorded at the union hall');
  const audio = figure.locator('audio');
  await expect(audio).toHaveAttribute('aria-label', 'Episode 12');
  await expect(audio).toHaveAttribute('preload', 'metadata');
  await expect(audio).toHaveAttribute('controls', '');
  await expect(audio.locator('source')).toHaveAttribute('src', recording);
  await expect(audio.locator('source')).toHaveAttribute('type', 'audio/mpeg');
  // Its first bytes are enough for the browser's player to show the same length.
  await expect
    .poll(() => audio.evaluate((player: HTMLAudioElement) => Math.round(player.duration)))
    .toBe(3);
});
