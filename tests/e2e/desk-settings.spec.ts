import sharp from 'sharp';
import type { Browser, Page } from '@playwright/test';
import { FONT_PAIRINGS } from '../../contract/site-settings.js';
import { createArticle, expect, publishPost, signInAs, STAFF, test } from './fixtures.js';

// The publication's own name, words and look, from the desk's Settings page, at phone
// and desktop width: an owner changes them, sees the preview follow before saving, saves, and a
// reader's home page and article show them, dark, in the chosen fonts and accent. Its own site
// (playwright.config.ts, project "settings"): the look it leaves would change other specs' pages.

const { owner: OWNER } = STAFF;
const PASSWORD = 'correct horse battery staple';

const RUNS = [
  {
    name: 'desktop',
    width: 1280,
    height: 800,
    title: 'The Tideline',
    accent: '#0d6a8a',
    accentRgb: 'rgb(13, 106, 138)',
    fonts: 'editorial',
    heading: 'Fraunces Variable',
    body: 'Source Serif 4 Variable',
    spacing: '3px',
  },
  {
    name: 'phone',
    width: 390,
    height: 844,
    title: 'Tideline Pocket',
    accent: '#a3245f',
    accentRgb: 'rgb(163, 36, 95)',
    fonts: 'classic',
    heading: 'Playfair Display Variable',
    body: 'Lora Variable',
    spacing: '4px',
  },
] as const;

/** A logo as a publisher would upload it: a wave in a disc, on a transparent ground, 360×240. */
const logo = () =>
  sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="360" height="240">' +
        '<circle cx="120" cy="120" r="110" fill="#f2b233"/>' +
        '<path d="M20 140q50-40 100 0t100 0t100 0v60H20z" fill="#0d6a8a"/></svg>',
    ),
  )
    .png()
    .toBuffer();

/** The page background of the dark scheme and of the light one (styles.css). */
const DARK_PAPER = 'rgb(20, 20, 20)';
const LIGHT_PAPER = 'rgb(251, 250, 247)';

const computed = (page: Page, selector: string, property: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element, name) => getComputedStyle(element).getPropertyValue(name).trim(), property);

/** A reader's browser: no session, the site's address. */
async function readerPage(browser: Browser, owner: Page, width: number, height: number) {
  const context = await browser.newContext({
    baseURL: new URL(owner.url()).origin,
    viewport: { width, height },
  });
  return context.newPage();
}

/** Opens the site's menu where it is folded behind its toggle (phones). */
async function openMenu(page: Page) {
  const toggle = page.getByRole('button', { name: 'Open menu' });
  if (await toggle.isVisible()) await toggle.click();
}

for (const run of RUNS) {
  test(`an owner makes the site theirs on the Settings page, sees the preview before saving, and readers get it (${run.name})`, async ({
    page,
    mailbox,
    browser,
  }, testInfo) => {
    test.slow(); // every setting, its preview, a save, then a reader's pages, feed and mail
    await page.setViewportSize({ width: run.width, height: run.height });
    await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
    const article = await publishPost(
      page.request,
      await createArticle(page.request, {
        title: `Low Tide at Dawn (${run.name})`,
        slug: `low-tide-at-dawn-${run.name}`,
        body: 'The sea goes out a mile, and *everyone* walks after it.',
      }),
    );

    // The site starts light (the run before may have left it dark).
    const light = await page.request.patch('/api/desk/settings', {
      data: { colorScheme: 'light' },
    });
    expect(light.status(), await light.text()).toBe(200);
    // A reader already on the site before the change: their next move brings it.
    const early = await readerPage(browser, page, run.width, run.height);
    await early.goto('/');
    await expect(early.locator('html')).not.toHaveAttribute('data-color-scheme', 'dark');

    await page.goto('/desk/settings');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
    const form = page.getByRole('form', { name: 'Settings' });
    const preview = page.getByTestId('settings-preview');
    await form.getByLabel('Title', { exact: true }).fill(run.title);
    await form.getByLabel('Tagline').fill('News from where the land meets the sea.');
    await form
      .getByLabel('Footer text')
      .fill(`Reader-funded since 2019 (${run.name}).\n\nWrite to us at desk@tideline.example.`);
    await form.getByLabel('Newsletter sign-up words').fill(`The week’s tides, each Friday.`);
    await form
      .getByLabel('Logo', { exact: true })
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await logo() });
    await expect(form.getByRole('img', { name: 'Logo as uploaded' })).toBeVisible();
    await expect(preview.locator('.site-logo')).toBeVisible();
    await form.getByLabel('Accent colour', { exact: true }).fill(run.accent);
    await form.getByRole('radio', { name: /^Dark/ }).check();
    await form.getByRole('radio', { name: new RegExp(`^${run.fonts}`, 'i') }).check();
    const links = form.getByRole('list', { name: 'Social links' }).getByRole('listitem');
    const number = (await links.count()) + 1;
    await form.getByRole('button', { name: 'Add a link' }).click();
    await form.getByLabel(`Link ${number} name`).fill(`Mastodon ${run.name}`);
    await form
      .getByLabel(`Link ${number} address`)
      .fill(`https://mastodon.example/@tideline-${run.name}`);
    await form.getByLabel('Custom CSS').fill(`.footer__note { letter-spacing: ${run.spacing}; }`);

    // The preview shows what is not saved yet; the site does not.
    await expect(preview).toContainText(run.title);
    await expect(preview).toContainText(`Reader-funded since 2019 (${run.name}).`);
    await expect(preview).toContainText('The week’s tides, each Friday.');
    await expect(preview).toContainText(`Mastodon ${run.name}`);
    await expect(preview).toHaveAttribute('data-color-scheme', 'dark');
    await expect(preview).toHaveAttribute('data-fonts', run.fonts);
    expect(await computed(page, '[data-testid="settings-preview"]', 'background-color')).toBe(
      DARK_PAPER,
    );
    expect(await computed(page, '.settings-preview__button', 'background-color')).toBe(
      run.accentRgb,
    );
    expect(await computed(page, '.settings-preview__heading', 'font-family')).toContain(
      run.heading,
    );
    expect(await (await page.request.get('/')).text()).not.toContain(
      `Reader-funded since 2019 (${run.name})`,
    );
    await page.screenshot({
      path: testInfo.outputPath(`settings-page-${run.name}.png`),
      fullPage: true,
    });

    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect(form.getByRole('status')).toHaveText('Saved: your site shows these settings now.');

    // A new reader: the page the server sends is already theirs.
    const reader = await readerPage(browser, page, run.width, run.height);
    const fontHosts = new Set<string>();
    reader.on('request', (request) => {
      if (request.resourceType() === 'font') fontHosts.add(new URL(request.url()).origin);
    });
    await reader.goto('/');
    await expect(reader.locator('html')).toHaveAttribute('data-color-scheme', 'dark');
    await expect(reader.locator('html')).toHaveAttribute('data-fonts', run.fonts);
    await openMenu(reader);
    await expect(
      reader.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: run.title }),
    ).toBeVisible();
    await expect(reader.locator('.navbar__brand .site-logo')).toHaveAttribute(
      'src',
      /^\/uploads\//,
    );
    expect(await computed(reader, 'body', 'background-color')).toBe(DARK_PAPER);
    expect(await computed(reader, 'html', '--accent')).toBe(run.accent);
    expect(await computed(reader, 'h1', 'font-family')).toContain(run.heading);
    const footer = reader.locator('footer');
    await expect(footer).toContainText(`Reader-funded since 2019 (${run.name}).`);
    await expect(footer).toContainText('Write to us at desk@tideline.example.');
    await expect(footer).not.toContainText('Millennials');
    const social = footer.getByRole('link', { name: new RegExp(`^Mastodon ${run.name}`) });
    await expect(social).toHaveAttribute('href', `https://mastodon.example/@tideline-${run.name}`);
    await expect(social).toHaveAttribute('target', '_blank');
    await expect(social).toHaveAttribute('rel', 'noopener noreferrer me');
    expect(await computed(reader, '.footer__note', 'letter-spacing')).toBe(run.spacing);
    await reader.screenshot({
      path: testInfo.outputPath(`home-dark-${run.name}.png`),
      fullPage: true,
    });

    await reader.goto(article.path);
    await expect(reader.getByRole('heading', { level: 1 })).toHaveText(article.title);
    expect(await computed(reader, 'body', 'background-color')).toBe(DARK_PAPER);
    expect(await computed(reader, '.prose', 'font-family')).toContain(run.body);
    expect(await computed(reader, '.newsletter-signup', 'border-top-color')).toBe(run.accentRgb);
    await expect(reader.locator('.newsletter-signup')).toContainText(
      'The week’s tides, each Friday.',
    );
    await expect(reader.locator('footer')).toContainText(`Reader-funded since 2019 (${run.name}).`);
    // The pairing's own files, from the site itself: no font service.
    const loaded = await reader.evaluate(async (family) => {
      await document.fonts.ready;
      return document.fonts.check(`1em "${family}"`);
    }, run.body);
    expect(loaded).toBe(true);
    expect([...fontHosts]).toEqual([new URL(reader.url()).origin]);
    await reader.screenshot({
      path: testInfo.outputPath(`article-dark-${run.name}.png`),
      fullPage: true,
    });

    // The reader who was already here gets the new look at their next move, without reloading.
    await openMenu(early);
    await early.locator('.navbar__links a').first().click();
    await expect(early.locator('html')).toHaveAttribute('data-color-scheme', 'dark');
    await expect(early.locator('html')).toHaveAttribute('data-fonts', run.fonts);
    await expect.poll(() => computed(early, 'html', '--accent')).toBe(run.accent);
    await expect.poll(() => computed(early, '.footer__note', 'letter-spacing')).toBe(run.spacing);
  });
}

test('each font pairing draws the site in its own fonts, light and dark (screenshots)', async ({
  page,
  mailbox,
}, testInfo) => {
  await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
  const article = await publishPost(
    page.request,
    await createArticle(page.request, {
      title: 'Reading the Shipping Forecast',
      slug: 'reading-the-shipping-forecast',
      body: 'Viking, North Utsire, *South Utsire*: the names roll on, and each one means weather.',
    }),
  );
  for (const pairing of FONT_PAIRINGS) {
    const changed = await page.request.patch('/api/desk/settings', {
      data: { fonts: pairing.value, colorScheme: pairing.value === 'modern' ? 'light' : 'dark' },
    });
    expect(changed.status(), await changed.text()).toBe(200);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(article.path);
      await expect(page.locator('html')).toHaveAttribute('data-fonts', pairing.value);
      const body = await computed(page, '.prose', 'font-family');
      if (pairing.value === 'system') expect(body).toContain('Charter');
      else expect(body).toContain(`${pairing.body} Variable`);
      await page.screenshot({
        path: testInfo.outputPath(`fonts-${pairing.value}-${width}.png`),
        fullPage: false,
      });
    }
  }
});

test('the reader’s own scheme is light or dark as their system is set, and the desk stays light (screenshots)', async ({
  page,
  mailbox,
  browser,
}, testInfo) => {
  await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
  const reader = await readerPage(browser, page, 1280, 800);
  for (const [scheme, system, paper] of [
    ['light', 'dark', LIGHT_PAPER],
    ['dark', 'light', DARK_PAPER],
    ['auto', 'light', LIGHT_PAPER],
    ['auto', 'dark', DARK_PAPER],
  ] as const) {
    const changed = await page.request.patch('/api/desk/settings', {
      data: { colorScheme: scheme },
    });
    expect(changed.status(), await changed.text()).toBe(200);
    await reader.emulateMedia({ colorScheme: system });
    await reader.goto('/');
    await expect(reader.locator('html')).toHaveAttribute('data-color-scheme', scheme);
    expect(await computed(reader, 'body', 'background-color')).toBe(paper);
    await reader.screenshot({ path: testInfo.outputPath(`home-${scheme}-${system}-system.png`) });
  }

  // On a dark system the desk is light, and the preview of `auto` dark.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/desk/settings');
  const preview = page.getByTestId('settings-preview');
  await expect(preview).toHaveAttribute('data-color-scheme', 'auto');
  expect(await computed(page, 'body', 'background-color')).toBe(LIGHT_PAPER);
  expect(await computed(page, '[data-testid="settings-preview"]', 'background-color')).toBe(
    DARK_PAPER,
  );
  await page.screenshot({ path: testInfo.outputPath('settings-auto-dark-system.png') });
});
