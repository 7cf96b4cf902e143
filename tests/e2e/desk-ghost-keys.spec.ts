import { expect, signInAs, STAFF, test } from './fixtures.js';
import { DESK_WIDTHS as WIDTHS, expectNoSidewaysScroll } from './support/widths.js';

// Keys for Ghost's Admin API from the desk (docs/ghost-api.md), at phone and desktop width: an
// owner makes their staff access token on their profile page (shown once, in Ghost's key shape),
// and adds a webhook to an integration on the Integrations page, which lists it.

const PASSWORD = 'correct horse battery staple';

// The loopback webhook refused at the end is a 400 the browser logs.
test.use({ expectedConsoleErrors: [/status of 400/] });

for (const { name, width, height } of WIDTHS) {
  test(`an owner makes a staff access token and adds a webhook to an integration (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });

    await page.goto('/desk/profile');
    const panel = page.getByRole('region', { name: 'Staff access token' });
    await expect(panel).toBeVisible();
    await panel.getByRole('button', { name: /^Make a (new )?token$/ }).click();
    const confirm = panel.getByRole('alertdialog');
    // A token made by the other width's run is replaced, after asking.
    if (await confirm.isVisible().catch(() => false)) {
      await confirm.getByRole('button', { name: 'Make a new token' }).click();
    }
    const token = panel.getByLabel('Your token');
    await expect(token).toHaveValue(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
    await expect(panel.getByRole('status')).toHaveText('Copy it now: it is not shown again.');
    await expectNoSidewaysScroll(page, width);
    await page.screenshot({ path: testInfo.outputPath(`staff-token-${name}.png`), fullPage: true });

    await page.goto('/desk/integrations');
    const integrationName = `Zapier (${name})`;
    await page.getByLabel('Name (what the tool is)').fill(integrationName);
    await page.getByRole('button', { name: 'Make an integration' }).click();
    await page.getByRole('button', { name: 'I have copied them' }).click();
    const row = page.getByRole('article', { name: integrationName });
    await expect(row.getByText('None: nothing is sent to other services.')).toBeVisible();
    await row.getByRole('button', { name: 'Add a webhook' }).click();
    await row.getByLabel('Event').selectOption('member.added');
    // A public address given as an IP, so no name needs resolving where the tests run.
    await row.getByLabel('Target URL').fill('https://93.184.216.34/cohort-hook');
    await row.getByLabel(/^Secret/).fill('shared secret');
    await row.getByRole('button', { name: 'Add webhook' }).click();
    await expect(row.getByRole('status')).toHaveText(
      'Added: member.added goes to https://93.184.216.34/cohort-hook.',
    );
    await expect(row.getByRole('listitem')).toContainText('member.added');
    await expect(row.getByRole('listitem')).toContainText('Signed. Not sent yet.');
    await expectNoSidewaysScroll(page, width);
    await page.screenshot({ path: testInfo.outputPath(`webhooks-${name}.png`), fullPage: true });

    // A loopback address is refused, in words.
    await row.getByRole('button', { name: 'Add a webhook' }).click();
    await row.getByLabel('Target URL').fill('http://127.0.0.1:9/hook');
    await row.getByRole('button', { name: 'Add webhook' }).click();
    await expect(row.getByRole('alert')).toContainText('not sent to private or loopback');
  });
}
