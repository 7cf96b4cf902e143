import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { expect, signInAs, STAFF, test } from './fixtures.js';
import { openDeskMenu } from './support/desk-menu.js';

// Authors, at phone and desktop width: two staff members set their profiles (one with
// a picture), an owner gives a new article both of them as authors, and a reader finds both
// bylines on the article, the author's page listing it, and the author's feed carrying it.

const { owner: OWNER, editor: EDITOR } = STAFF;
const PASSWORD = 'correct horse battery staple';

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/** A square portrait: a warm gradient, as a phone's camera would not make it, 480×480. */
async function portrait(): Promise<Buffer> {
  const size = 480;
  const pixels = Buffer.alloc(size * size * 3);
  for (let i = 0; i < pixels.length; i += 3) {
    const x = (i / 3) % size;
    const y = Math.floor(i / 3 / size);
    pixels[i] = 200 + (x * 55) / size;
    pixels[i + 1] = 90 + (y * 100) / size;
    pixels[i + 2] = 60;
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}

/** Fills the desk's Profile page and saves it. */
async function saveProfile(
  page: Page,
  profile: { name: string; slug: string; bio: string; link: string },
) {
  await page.getByLabel('Name').fill(profile.name);
  await page.getByLabel('Address of your page').fill(profile.slug);
  await page.getByLabel('Short bio').fill(profile.bio);
  await page.getByLabel(/^Links/).fill(profile.link);
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Saved: your bylines and your page say so now.',
  );
}

for (const { name, width, height } of WIDTHS) {
  test(`two staff set their profiles, an article credits both, and readers find the bylines, the author's page and its feed (${name})`, async ({
    page,
    browser,
    mailbox,
    site,
  }, testInfo) => {
    await page.setViewportSize({ width, height });

    // The editor, in a browser of their own: a profile without a picture.
    const editorContext = await browser.newContext({
      baseURL: site.url,
      viewport: { width, height },
    });
    const editorPage = await editorContext.newPage();
    await signInAs(editorPage, mailbox, { email: EDITOR, password: PASSWORD });
    await editorPage.goto('/desk');
    await (await openDeskMenu(editorPage)).getByRole('link', { name: 'Profile' }).click();
    await expect(editorPage.getByRole('heading', { level: 1 })).toHaveText('Your profile');
    await saveProfile(editorPage, {
      name: 'Sam Lee',
      slug: 'sam-lee',
      bio: 'Covers wages, unions and the first job.',
      link: 'https://example.com/sam',
    });
    await editorContext.close();

    // The owner: a picture uploaded through the desk's uploads, then the rest.
    await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
    await page.goto('/desk/profile');
    await page.getByLabel('Picture').setInputFiles({
      name: 'ana.png',
      mimeType: 'image/png',
      buffer: await portrait(),
    });
    await expect(page.locator('.desk-profile__picture img')).toHaveAttribute(
      'src',
      /^\/uploads\/[a-z0-9]{20}-480x480\.webp$/,
    );
    await saveProfile(page, {
      name: 'Ana Ruiz',
      slug: 'ana-ruiz',
      bio: 'Writes about rent, deposits and the first keys.',
      link: 'https://example.com/ana',
    });
    await page.screenshot({
      path: testInfo.outputPath(`desk-profile-${name}.png`),
      fullPage: true,
    });

    // A new article: its writer is ticked already; the editor is added as the second author.
    await page.goto('/desk/posts/new?kind=article');
    const title = `Two Names on the Lease (${name})`;
    await page.getByRole('textbox', { name: 'Title' }).fill(title);
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.type('Both tenants sign, both get a copy, both are named on the deposit.');
    await page.getByLabel('Section').selectOption('Wealth');
    await page.getByLabel('Summary').fill('What a joint tenancy means for each of you.');
    await page.getByLabel('Address (slug)').fill(`two-names-${name}`);
    const authors = page.getByRole('group', { name: 'Authors' });
    await expect(authors.getByRole('checkbox', { name: /^Ana Ruiz/ })).toBeChecked();
    await authors.getByRole('checkbox', { name: /^Sam Lee/ }).check();
    await expect(authors).toContainText('Byline: by Ana Ruiz and Sam Lee');
    await authors.screenshot({ path: testInfo.outputPath(`authors-field-${name}.png`) });
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page).toHaveURL(/\/desk\/posts\/\d+$/);
    await expect(page.getByRole('status').first()).toContainText(/^Saved /);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = (await (await page.request.get(`/api/desk/posts/${id}`)).json()).post;
    expect(stored.authors).toEqual(['ana-ruiz', 'sam-lee']);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: /^Yes, publish/ }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Article · published');

    // A reader: both bylines on the article, each leading to the author's page.
    const readerContext = await browser.newContext({
      baseURL: site.url,
      viewport: { width, height },
    });
    const reader = await readerContext.newPage();
    await reader.goto(`/wealth/two-names-${name}`);
    await expect(reader.getByRole('heading', { level: 1 })).toHaveText(title);
    const byline = reader.locator('.byline');
    await expect(byline).toHaveText('By Ana Ruiz and Sam Lee');
    await reader.screenshot({ path: testInfo.outputPath(`article-byline-${name}.png`) });
    await byline.getByRole('link', { name: 'Sam Lee' }).click();
    await expect(reader).toHaveURL(/\/authors\/sam-lee$/);
    await expect(reader.getByRole('heading', { level: 1 })).toHaveText('Sam Lee');
    await expect(reader.getByText('Covers wages, unions and the first job.')).toBeVisible();
    await expect(reader.getByRole('link', { name: title })).toBeVisible();
    await reader.goto('/authors/ana-ruiz');
    await expect(reader.getByRole('heading', { level: 1 })).toHaveText('Ana Ruiz');
    await expect(reader.locator('.author-picture')).toBeVisible();
    await expect(reader.getByRole('link', { name: /example\.com/ })).toHaveAttribute(
      'href',
      'https://example.com/ana',
    );
    await expect(reader.getByRole('link', { name: title })).toBeVisible();
    // Nothing off-screen at a phone's width.
    expect(await reader.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
    await reader.screenshot({
      path: testInfo.outputPath(`author-page-${name}.png`),
      fullPage: true,
    });

    // The author's feed has the article, crediting both.
    const feed = await reader.request.get('/authors/sam-lee/rss.xml');
    expect(feed.status()).toBe(200);
    const xml = await feed.text();
    expect(xml).toContain(`<title>${title}</title>`);
    expect(xml).toContain(`/wealth/two-names-${name}</link>`);
    expect(xml).toContain('<dc:creator>Ana Ruiz</dc:creator>');
    expect(xml).toContain('<dc:creator>Sam Lee</dc:creator>');
    await readerContext.close();
  });
}
