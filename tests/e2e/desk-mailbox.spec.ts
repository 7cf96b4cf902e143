import type { Page } from '@playwright/test';
import pg from 'pg';
import { tokenFromMail } from '#test/registration';
import { expect, STAFF, test } from './fixtures.js';
import { visit } from './support/visit.js';
import { openDeskMenu } from './support/desk-menu.js';

// Mail you can see, on a site whose mail goes to the log (MAIL_TRANSPORT=log, no SMTP server): an
// owner sends a newsletter's test copy from the editor and reads its HTML in the desk's Mailbox,
// drawn in a sandboxed frame, at a desktop's and a phone's width.

const PASSWORD = 'a mailbox owner’s long passphrase';

// Reading inside the mail's frame runs Playwright's own script there, which the sandbox blocks
// (and Chromium says so): the frame refusing scripts is what this test wants to see.
test.use({
  expectedConsoleErrors: [
    /^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\.$/,
  ],
});

/**
 * Signs the page's browser in as the owner, registering the first time with the link the site
 * kept in its mailbox (the table behind /desk/mailbox: there is no SMTP server to read it from).
 */
async function signInAsOwner(page: Page, databaseUrl: string) {
  await visit(page, '/');
  const account = { email: STAFF.owner, password: PASSWORD };
  const signedIn = await page.request.post('/api/auth/login', { data: account });
  if (signedIn.status() === 200) return;
  expect(signedIn.status(), await signedIn.text()).toBe(401);
  const asked = await page.request.post('/api/auth/register', { data: { email: account.email } });
  expect(asked.status(), await asked.text()).toBe(202);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let text: string | undefined;
    await expect
      .poll(async () => {
        const { rows } = await client.query<{ text: string }>(
          `SELECT "text" FROM "logged_mails" WHERE "to" = $1 ORDER BY "id" DESC LIMIT 1`,
          [account.email],
        );
        text = rows[0]?.text;
        return text ?? '';
      })
      .toContain('/register/confirm#token=');
    const confirmed = await page.request.post('/api/auth/register/confirm', {
      data: { token: tokenFromMail(text ?? '', '/register/confirm'), password: account.password },
    });
    expect(confirmed.status(), await confirmed.text()).toBe(200);
  } finally {
    await client.end();
  }
}

for (const [width, height] of [
  [1280, 900],
  [390, 844],
] as const) {
  test(`an owner sends a newsletter's test copy and reads its HTML in the desk's Mailbox (${width} px)`, async ({
    page,
    site,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAsOwner(page, site.databaseUrl);
    const title = `The Mailbox Letter ${width}`;
    const created = await page.request.post('/api/desk/posts', {
      data: {
        kind: 'newsletter',
        title,
        summary: 'A letter read without an SMTP server.',
        body: `## Read me in the desk\n\nThis letter was **never mailed** (${width} px).\n`,
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { post } = await created.json();

    await page.goto(`/desk/posts/${post.id}`);
    const mail = page.getByRole('region', { name: 'Mail it' });
    await expect(mail.getByRole('status')).toContainText('Never sent.');
    await mail.getByRole('button', { name: 'Send test' }).click();
    await expect(mail.getByText(/is in the desk's Mailbox/)).toBeVisible();

    // The desk's navigation offers the mailbox (behind its Menu button on a phone).
    await (await openDeskMenu(page)).getByRole('link', { name: 'Mailbox' }).click();
    await expect(page).toHaveURL('/desk/mailbox');
    await expect(page.getByRole('heading', { level: 1, name: 'Mailbox' })).toBeVisible();
    const newest = page
      .getByRole('list', { name: 'Mails, newest first' })
      .getByRole('button')
      .first();
    await expect(newest).toContainText(`[Test] ${title}`);
    await expect(newest).toHaveAttribute('aria-pressed', 'true');

    const reader = page.getByRole('article', { name: `Mail: [Test] ${title}` });
    await expect(reader).toContainText(STAFF.owner);
    const frame = reader.locator('iframe');
    // Drawn without scripts and apart from the desk.
    await expect(frame).toHaveAttribute('sandbox', /^(?!.*allow-scripts)(?!.*allow-same-origin)/);
    const html = page.frameLocator('iframe.mailbox__html');
    await expect(html.getByRole('heading', { name: 'Read me in the desk' })).toBeVisible();
    await expect(html.locator('strong', { hasText: 'never mailed' })).toBeVisible();
    // Nothing reached the worker's SMTP server.
    expect(mailbox.mailsTo(STAFF.owner)).toHaveLength(0);
    await page.screenshot({
      path: testInfo.outputPath(`desk-mailbox-${width}.png`),
      fullPage: true,
    });
  });
}
