import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Route } from '@playwright/test';
import { archiveLimits, openExport } from '../../server/src/imports/archive.js';
import { expect, signInAs, STAFF, test } from './fixtures.js';

// The desk's Import page in the real built site: an owner uploads a small Ghost export, sees the
// upload's and the import's progress and then the report, finds the posts imported, and leaves
// with everything as a Ghost export; at desktop and phone width.

const PASSWORD = 'correct horse battery staple';
const FIXTURE = fileURLToPath(
  new URL('../fixtures/imports/ghost/desk-upload.json', import.meta.url),
);

/** A request held until the test lets it go: to see what the page shows meanwhile. */
function hold() {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let caught: () => void = () => {};
  const seen = new Promise<void>((resolve) => (caught = resolve));
  return {
    seen,
    release,
    async handler(route: Route) {
      caught();
      await released;
      await route.continue();
    },
  };
}

test('an owner imports a Ghost export from the Import page: upload, progress, report, and the download', async ({
  page,
  mailbox,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
  await page.goto('/desk');
  await page
    .getByRole('navigation', { name: 'Desk' })
    .getByRole('link', { name: 'Import' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Import' })).toBeVisible();
  await expect(
    page.getByText('the .json export (Settings → Advanced → Import/Export)'),
  ).toBeVisible();

  await page.getByRole('radio', { name: /^Ghost/ }).check();
  await page.getByLabel('Section for the posts').selectOption('Health');
  await page.getByLabel(/^File/).setInputFiles(FIXTURE);

  // The upload and the first look at the import are held, to see the page say where it is.
  const upload = hold();
  await page.route('**/api/desk/imports', (route) =>
    route.request().method() === 'POST' ? upload.handler(route) : route.continue(),
  );
  const firstPoll = hold();
  await page.route(/\/api\/desk\/imports\/[0-9a-f-]{36}$/, async (route) => {
    await page.unroute(/\/api\/desk\/imports\/[0-9a-f-]{36}$/);
    await firstPoll.handler(route);
  });
  await page.getByRole('button', { name: 'Upload and import' }).click();
  await upload.seen;
  await expect(page.getByText(/Uploading the file: \d+%/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Uploading…' })).toBeDisabled();
  upload.release();
  await firstPoll.seen;
  await expect(page.getByText(/^Importing:/)).toBeVisible();
  firstPoll.release();

  // Then the report: the counts, and what else came along.
  const report = page.getByRole('region', { name: /Imported in/ });
  await expect(report).toBeVisible({ timeout: 30_000 });
  const row = (name: string) => report.getByRole('row', { name: new RegExp(`^${name}`) });
  await expect(row('Posts').getByRole('cell')).toHaveText(['2', '0', '0', '0']);
  await expect(row('Pages').getByRole('cell')).toHaveText(['1', '0', '0', '0']);
  await expect(row('Members').getByRole('cell')).toHaveText(['1', '0', '0', '0']);
  await expect(report.getByText(/new topics/)).toBeVisible();
  // What the import decided is said, as the command line says it.
  await expect(report.getByRole('heading', { name: 'Notes' })).toBeVisible();
  await expect(report.getByText(/^2 posts placed in Health/)).toBeVisible();
  await expect(page.getByRole('table', { name: 'The last imports, newest first' })).toContainText(
    'desk-upload.json',
  );
  await page.screenshot({ path: testInfo.outputPath('desk-import-desktop.png'), fullPage: true });

  // The posts are the site's now, in the section chosen.
  const posts = await page.request.get('/api/desk/posts?q=Tenants');
  expect(await posts.text()).toContain('"slug":"tenants-organise-the-block"');

  // Leaving: everything as a Ghost export, the imported posts in it.
  await expect(page.getByText('Members-only posts are in it in full')).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download everything as a Ghost export' }).click();
  const download = await downloading;
  // A zip, as Ghost's own export: the JSON in it, beside the images.
  expect(download.suggestedFilename()).toMatch(/-ghost-export-\d{4}-\d{2}-\d{2}\.zip$/);
  const archive = await openExport(await download.path(), archiveLimits());
  const json = [...archive.entries.values()].find((entry) => entry.path.endsWith('.json'));
  if (!json) throw new Error('The zip holds no JSON');
  const exported = JSON.parse((await json.read(archiveLimits().maxBytes)).toString('utf8')) as {
    db: { meta: { version: string }; data: { posts: { slug: string; type: string }[] } }[];
  };
  expect(exported.db[0]?.meta.version).toBe('5.x');
  expect(exported.db[0]?.data.posts).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ slug: 'the-rent-ledger-explained', type: 'post' }),
      expect.objectContaining({ slug: 'about-the-association', type: 'page' }),
    ]),
  );

  // On a phone: the same page, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(report).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: testInfo.outputPath('desk-import-phone.png'), fullPage: true });
});

test.describe('trying an import first', () => {
  // The price mapping refused (payments are off) is a 400 the page shows, as it should.
  test.use({ expectedConsoleErrors: [/status of 400/] });

  test('an owner tries an import first (a dry run), maps a tag to a section, and opens an earlier import’s whole report', async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    // Posts of this run's own, so a retry on the same site finds them new.
    const run = Date.now().toString(36);
    const file = testInfo.outputPath(`garden-${run}.json`);
    const post = (slug: string) => ({
      id: slug,
      title: `Garden ${slug}`,
      slug,
      html: `<p>Planting notes for ${slug}.</p>`,
      status: 'published',
      type: 'post',
      visibility: 'public',
      published_at: '2024-04-05T06:07:08.000Z',
    });
    await writeFile(
      file,
      JSON.stringify({
        db: [
          {
            meta: { exported_on: 1_700_000_000_000, version: '5.0.0' },
            data: {
              posts: [post(`beans-${run}`), post(`roses-${run}`)],
              tags: [{ id: 'tag-1', name: 'Garden Notes', slug: 'garden-notes' }],
              posts_tags: [{ id: 'pt-1', post_id: `roses-${run}`, tag_id: 'tag-1', sort_order: 0 }],
              members: [{ id: 'm-1', email: 'not an address', subscribed: true }],
            },
          },
        ],
      }),
    );
    await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
    await page.goto('/desk/imports');
    await page.getByRole('radio', { name: /^Ghost/ }).check();
    await page.getByLabel('Section for the posts').selectOption('Health');
    await page.getByLabel(/^File/).setInputFiles(file);

    // Tags to sections, as --map does.
    await page.getByRole('button', { name: 'Map a tag to a section' }).click();
    const tags = page.getByRole('group', { name: 'Tags to sections' });
    await tags.getByLabel('Tag', { exact: true }).fill('Garden Notes');
    // A label around a list names it with the chosen option too ("Section Health").
    await tags.getByRole('combobox', { name: /^Section/ }).selectOption('Wealth');
    // A Stripe price mapping is refused on a site whose payments are off, saying so.
    await page.getByRole('button', { name: 'Map a Stripe price to a plan' }).click();
    await page.getByLabel('Stripe price id').fill('price_garden');
    await page.getByRole('checkbox', { name: /^Dry run/ }).check();
    await page.getByRole('button', { name: 'Upload and try (dry run)' }).click();
    await expect(page.getByRole('alert')).toContainText('payments are off on this site');
    await page.getByRole('button', { name: 'Remove the mapping of price 1' }).click();

    // The dry run: what the import would do, and nothing written.
    await page.getByRole('button', { name: 'Upload and try (dry run)' }).click();
    const dry = page.getByRole('region', { name: /^Dry run in .* s: nothing was written$/ });
    await expect(dry).toBeVisible({ timeout: 30_000 });
    await expect(dry.getByRole('row', { name: /^Posts/ }).getByRole('cell')).toHaveText([
      '2',
      '0',
      '0',
      '0',
    ]);
    await expect(dry.getByText(/^1 post placed in Wealth/)).toBeVisible();
    await expect(dry.getByText(/^1 post placed in Health/)).toBeVisible();
    const written = async () => (await page.request.get(`/api/desk/posts?q=${run}`)).text();
    expect(await written()).not.toContain(`beans-${run}`);
    // Its progress and report never named the server's folders.
    await expect(page.locator('main')).not.toContainText('cohort-import-');

    // Then for real.
    await page.getByRole('checkbox', { name: /^Dry run/ }).uncheck();
    await page.getByRole('button', { name: 'Upload and import' }).click();
    const done = page.getByRole('region', { name: /^Imported in/ });
    await expect(done).toBeVisible({ timeout: 30_000 });
    await expect(done.getByText(/^1 post placed in Wealth/)).toBeVisible();
    expect(await written()).toContain(`roses-${run}`);

    // The dry run, opened from the list later, shows its whole report as it was.
    const earlier = page.getByRole('table', { name: 'The last imports, newest first' });
    const dryRow = earlier.getByRole('row').filter({ hasText: 'Dry run: would create 2 posts' });
    await dryRow
      .first()
      .getByRole('button', { name: /^Open the report of garden-/ })
      .click();
    const past = page.getByRole('region', { name: new RegExp(`^garden-${run}\\.json, `) });
    await expect(past).toBeVisible();
    await expect(past.getByRole('heading', { name: /^Dry run in/ })).toBeVisible();
    await expect(past.getByRole('heading', { name: 'Skipped' })).toBeVisible();
    await expect(past.getByText('not an address')).toBeVisible();
    await past.scrollIntoViewIfNeeded();
    await page.screenshot({
      path: testInfo.outputPath('desk-import-past-desktop.png'),
      fullPage: true,
    });

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(past).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.screenshot({
      path: testInfo.outputPath('desk-import-past-phone.png'),
      fullPage: true,
    });
  });
});
