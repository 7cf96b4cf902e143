import { expect, signInAs, STAFF, test } from './fixtures.js';
import { DESK_WIDTHS as WIDTHS, expectNoSidewaysScroll } from './support/widths.js';
import { openDeskMenu } from './support/desk-menu.js';

// Integrations (docs/ghost-api.md), at phone and desktop width: an owner opens Integrations from
// the desk's menu, makes one, sees its API URL and both keys once, in Ghost's shapes, with a Copy
// button each; the list names it without its secrets; deleting it asks first, then it is gone.

const PASSWORD = 'correct horse battery staple';

for (const { name, width, height } of WIDTHS) {
  test(`an owner makes an integration, copies its keys once, and deletes it (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });

    await page.goto('/desk');
    await (await openDeskMenu(page)).getByRole('link', { name: 'Integrations' }).click();
    await expect(page).toHaveURL('/desk/integrations');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Integrations');

    const integrationName = `Astro front end (${name})`;
    await page.getByLabel('Name (what the tool is)').fill(integrationName);
    await page.getByRole('button', { name: 'Make an integration' }).click();
    const keys = page.getByRole('region', { name: `Keys for “${integrationName}”` });
    await expect(keys.getByLabel('API URL', { exact: true })).toHaveValue(
      new URL(page.url()).origin,
    );
    const contentKey = await keys.getByLabel('Content API key', { exact: true }).inputValue();
    expect(contentKey).toMatch(/^[0-9a-f]{26}$/);
    await expect(keys.getByLabel('Admin API key', { exact: true })).toHaveValue(
      /^[0-9a-f]{24}:[0-9a-f]{64}$/,
    );
    await expect(keys.getByRole('button', { name: 'Copy the Content API key' })).toBeVisible();
    await expectNoSidewaysScroll(page, width);
    await page.screenshot({
      path: testInfo.outputPath(`integrations-${name}.png`),
      fullPage: true,
    });

    // The key reads the site through Ghost's Content API.
    const answer = await page.request.get(`/ghost/api/content/settings/?key=${contentKey}`);
    expect(answer.status()).toBe(200);
    expect((await answer.json()).settings.url).toMatch(/^http/);

    await keys.getByRole('button', { name: 'I have copied them' }).click();
    await expect(keys).toHaveCount(0);
    const row = page.getByRole('article', { name: integrationName });
    await expect(row).toContainText(`Content key …${contentKey.slice(-4)}`);
    await expect(page.getByText(contentKey)).toHaveCount(0);

    await row.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(row.getByRole('alertdialog')).toContainText('Both its keys stop working at once');
    await expectNoSidewaysScroll(page, width);
    await page.screenshot({
      path: testInfo.outputPath(`integrations-delete-${name}.png`),
      fullPage: true,
    });
    await row.getByRole('button', { name: 'Delete it' }).click();
    await expect(page.getByRole('status').first()).toHaveText(
      `Deleted “${integrationName}”: its keys no longer work.`,
    );
    await expect(page.getByRole('article', { name: integrationName })).toHaveCount(0);
    const refused = await page.request.get(`/ghost/api/content/settings/?key=${contentKey}`);
    expect(refused.status()).toBe(401);
    await refused.body();
  });
}
