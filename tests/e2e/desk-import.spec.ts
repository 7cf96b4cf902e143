import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Route } from '@playwright/test';
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
  expect(download.suggestedFilename()).toMatch(/-ghost-export-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(await readFile(await download.path(), 'utf8')) as {
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
