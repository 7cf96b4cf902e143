import { expect, test } from './fixtures.js';
import { visit, waitForHydration } from './support/visit.js';

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

for (const { name, width, height } of WIDTHS) {
  test(`a reader signs up on the home page and confirms from the mailed link (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    const email = `newsletter-${name}-${Date.now()}@example.com`;
    await visit(page, '/');
    // Typed before React adopts the field, the address would be the page's and not the form's.
    await waitForHydration(page, '.newsletter-signup input[name="email"]');
    const box = page.getByRole('region', { name: 'Get the newsletter' });
    await box.scrollIntoViewIfNeeded();
    await box.getByLabel('Email').fill(email);
    await page.screenshot({ path: testInfo.outputPath(`newsletter-signup-${name}.png`) });
    await box.getByRole('button', { name: 'Subscribe' }).click();
    await expect(box.getByRole('status')).toContainText('Check your inbox');

    await expect.poll(() => mailbox.mailsTo(email).length).toBe(1);
    const link = /https?:\/\/\S+\/newsletter\/confirm#token=[\w-]+/.exec(
      mailbox.mailsTo(email)[0]?.text ?? '',
    )?.[0];
    expect(link).toBeDefined();
    // Opening the link shows a button and confirms nothing by itself.
    await page.goto(new URL(link ?? '').pathname + new URL(link ?? '').hash);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Confirm your subscription' }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/newsletter\/confirm$/);
    await page.screenshot({ path: testInfo.outputPath(`newsletter-confirm-${name}.png`) });
    await page.getByRole('button', { name: 'Confirm my subscription' }).click();
    await expect(page.getByRole('status')).toHaveText(
      `Subscribed: the Cohort newsletter will come to ${email}.`,
    );
    await page.screenshot({ path: testInfo.outputPath(`newsletter-confirmed-${name}.png`) });
  });
}

test('an article ends with the sign-up, and /account switches the newsletter', async ({
  page,
  registered,
}, testInfo) => {
  await visit(page, '/health/sleep-debt-reset');
  await expect(page.getByRole('region', { name: 'Liked this? Get the newsletter' })).toBeVisible();

  await visit(page, '/account');
  const section = page.getByRole('region', { name: 'Newsletter' });
  await expect(section.getByRole('status')).toHaveText('You do not get the newsletter.');
  await section.getByRole('button', { name: 'Subscribe' }).click();
  await expect(section.getByRole('status')).toHaveText(
    `You get the newsletter at ${registered.email}.`,
  );
  await page.screenshot({ path: testInfo.outputPath('newsletter-account.png'), fullPage: true });
  await section.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(section.getByRole('status')).toHaveText('You do not get the newsletter.');
});
