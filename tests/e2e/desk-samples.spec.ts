import { expect, signInAs, STAFF, test } from './fixtures.js';

// "Remove the sample content" (server/src/content/sample-content.ts), on a site of its
// own (playwright.config.ts, project "samples"): an owner finds the offer on the desk's Dashboard,
// confirms it, and the site has none of the samples after; the offer is gone for good.

const PASSWORD = 'correct horse battery staple';

test('an owner removes the sample content from the Dashboard, once', async ({
  page,
  mailbox,
}, testInfo) => {
  await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
  await page.goto('/perks');
  await expect(page.getByText('Green Bowl Kitchen')).toBeVisible();

  await page.goto('/desk/dashboard');
  const samples = page.getByRole('region', { name: 'Sample content' });
  await expect(samples).toContainText('This site still has the sample content it started with');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await samples.screenshot({ path: testInfo.outputPath(`desk-samples-${width}.png`) });
  }
  await samples.getByRole('button', { name: 'Remove the sample content' }).click();
  const confirm = samples.getByRole('alertdialog');
  await expect(confirm).toContainText('Your own posts, the settings, members and payments stay');
  await page.setViewportSize({ width: 390, height: 900 });
  await samples.screenshot({ path: testInfo.outputPath('desk-samples-confirm-390.png') });
  await confirm.getByRole('button', { name: 'Remove it now' }).click();
  await expect(samples.getByRole('status')).toHaveText(
    /^Removed \d+ posts, 8 perks and \d+ sections\.$/,
  );
  await expect(samples.getByRole('button', { name: 'Remove the sample content' })).toHaveCount(0);

  await page.goto('/perks');
  await expect(page.getByRole('heading', { level: 1, name: 'Member perks' })).toBeVisible();
  await expect(page.getByText('Green Bowl Kitchen')).toHaveCount(0);
  // No sample post nor section is left: the site has no section until the owner makes one.
  const home = await page.request.get('/api/site-data?path=%2F');
  expect((await home.json()).navigation.sections).toEqual([]);

  // Gone for good: the Dashboard offers nothing more.
  await page.goto('/desk/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Sample content' })).toHaveCount(0);
});
