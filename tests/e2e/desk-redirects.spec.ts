import { expect, signInAs, STAFF, test } from './fixtures.js';
import { DESK_WIDTHS as WIDTHS, expectNoSidewaysScroll } from './support/widths.js';
import { openDeskMenu } from './support/desk-menu.js';

// The desk's Redirects page, at phone and desktop width: an owner opens it from the desk's menu,
// uploads Ghost's redirects.yaml, saves it and sees the list the site now follows (and the site
// does follow it); a pasted file sending readers off the site is refused with why, the list as it
// was.

const PASSWORD = 'correct horse battery staple';
// The refused file's 400, which the browser logs.
test.use({ expectedConsoleErrors: [/status of 400/] });

for (const { name, width, height } of WIDTHS) {
  test(`an owner uploads redirects.yaml, saves it, sees it followed, and is told what is wrong with a bad one (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });

    await page.goto('/desk');
    await (await openDeskMenu(page)).getByRole('link', { name: 'Redirects' }).click();
    await expect(page).toHaveURL('/desk/redirects');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Redirects');

    const yaml = [
      '301:',
      `  /old-${name}/: /new-${name}/`,
      `  ^/blog-${name}/([a-z-]+)/?$: /articles/$1`,
      '302:',
      `  /sale-${name}/: /join`,
      '',
    ].join('\n');
    await page
      .getByLabel('Upload a file')
      .setInputFiles({ name: 'redirects.yaml', mimeType: 'text/yaml', buffer: Buffer.from(yaml) });
    await expect(page.getByRole('status').first()).toHaveText(
      'Read redirects.yaml: save to use it.',
    );
    await expect(page.getByLabel('Redirects file')).toHaveValue(yaml);
    await expect(page.getByRole('radio', { name: 'redirects.yaml' })).toBeChecked();
    await page.getByRole('button', { name: 'Save the redirects' }).click();
    await expect(page.getByRole('status').first()).toHaveText('Saved: 3 redirects in use.');

    const inUse = page.getByRole('region', { name: 'In use (3)' });
    const rows = inUse.getByRole('listitem');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText(`/old-${name}/`);
    await expect(rows.nth(0)).toContainText(`/new-${name}/`);
    await expect(rows.nth(0)).toContainText('301 permanent');
    await expect(rows.nth(2)).toContainText('302 temporary');
    await expectNoSidewaysScroll(page, width);
    await page.screenshot({ path: testInfo.outputPath(`redirects-${name}.png`), fullPage: true });

    // The site follows them at once.
    const moved = await page.request.get(`/blog-${name}/rent-strike/`, { maxRedirects: 0 });
    expect(moved.status()).toBe(301);
    expect(moved.headers().location).toBe('/articles/rent-strike');
    await moved.body();

    // A file pasted that would send readers to another site from a path: refused, saying where.
    await page.getByLabel('Redirects file').fill(`301:\n  /leave-${name}/: //evil.example\n`);
    await page.getByRole('button', { name: 'Save the redirects' }).click();
    const problem = page.getByRole('alert');
    await expect(problem).toContainText('The redirects were not saved');
    await expect(problem).toContainText(`301 /leave-${name}/: \`to\` //evil.example`);
    await expect(inUse.getByRole('listitem')).toHaveCount(3);
    await expectNoSidewaysScroll(page, width);
    await page.screenshot({
      path: testInfo.outputPath(`redirects-refused-${name}.png`),
      fullPage: true,
    });
    const notMoved = await page.request.get(`/leave-${name}/`, { maxRedirects: 0 });
    expect(notMoved.status()).toBe(301);
    // Only the site's own trailing-slash hop: to the same address without it, which is a 404.
    expect(notMoved.headers().location).toBe(`/leave-${name}`);
    await notMoved.body();
  });
}
