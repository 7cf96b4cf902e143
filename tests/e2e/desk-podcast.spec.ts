import sharp from 'sharp';
import { expect, STAFF, test } from './fixtures.js';

// A section of articles made a podcast from the desk's Sections page, at phone and desktop width:
// the owner turns it on with its author, category and a square cover, and its feed carries
// Apple's tags; a member gets their private feed's address on /account, copies it, and makes a
// new one, after which the old address answers 404.

const OWNER = STAFF.owner;
const PASSWORD = 'correct horse battery staple';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800, section: 'Listening Post', slug: 'listening-post' },
  { name: 'phone', width: 390, height: 844, section: 'Phone Sessions', slug: 'phone-sessions' },
] as const;

for (const { name, width, height, section, slug } of WIDTHS) {
  test(`an owner makes “${section}” a podcast, and a member gets and renews its private feed (${name})`, async ({
    page,
    registered,
    signedInElsewhere,
  }, testInfo) => {
    const owner = await signedInElsewhere({ email: OWNER, password: PASSWORD });
    await owner.setViewportSize({ width, height });
    const made = await owner.request.post('/api/desk/sections', {
      data: { name: section, slug, inMenu: false, description: 'Conversations, weekly.' },
    });
    expect(made.status(), await made.text()).toBe(201);

    await owner.goto('/desk/sections');
    const card = owner.getByRole('form', { name: `${section} as a podcast` });
    await expect(card.getByRole('heading', { name: 'Podcast off' })).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await owner.screenshot({ path: testInfo.outputPath(`desk-podcast-off-${name}.png`) });
    await card.getByRole('button', { name: 'Make it a podcast' }).click();
    await card.getByLabel('Author').fill('The Cohort Collective');
    await card.getByLabel('Category').selectOption('Society & Culture > Documentary');
    const square = await sharp({
      create: { width: 1400, height: 1400, channels: 3, background: { r: 30, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    await card
      .getByLabel('Upload a cover')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: square });
    await expect(card.getByRole('img', { name: 'The podcast’s cover as uploaded' })).toBeVisible();
    await expect(card.getByRole('alert')).toHaveCount(0);
    await card.getByRole('button', { name: 'Make it a podcast' }).click();
    await expect(owner.getByRole('status').first()).toHaveText(
      `${section} is a podcast: its feed is /${slug}/rss.xml.`,
    );
    const saved = owner.getByRole('form', { name: `${section} as a podcast` });
    await expect(saved.getByRole('link', { name: `/${slug}/rss.xml` })).toBeVisible();
    await expect(saved.getByRole('button', { name: 'Stop the podcast' })).toBeVisible();
    await saved.scrollIntoViewIfNeeded();
    await owner.screenshot({ path: testInfo.outputPath(`desk-podcast-${name}.png`) });

    const feed = await owner.request.get(`/${slug}/rss.xml`);
    expect(await feed.text()).toContain('<itunes:author>The Cohort Collective</itunes:author>');

    // The reader becomes a member (a comp from the desk), and finds the podcast on /account.
    const comp = await owner.request.post(`/api/desk/members/${registered.id}/comps`, {
      data: { until: '2027-11-24', reason: 'A listener of the podcast test' },
    });
    expect(comp.status(), await comp.text()).toBe(200);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.setViewportSize({ width, height });
    await page.goto('/account');
    const feeds = page.getByRole('region', { name: 'Your podcast feeds' });
    const mine = feeds.getByRole('listitem').filter({ hasText: section });
    await mine.getByRole('button', { name: 'Get my feed address' }).click();
    const address = mine.getByRole('textbox', { name: section });
    await expect(address).toHaveValue(/\/feeds\/[A-Za-z0-9_-]{32}\.xml$/);
    const first = await address.inputValue();
    await mine.getByRole('button', { name: 'Copy' }).click();
    await expect(mine.getByRole('status')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
    await feeds.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`account-podcast-feeds-${name}.png`) });
    const heard = await page.request.get(new URL(first).pathname);
    expect(heard.status()).toBe(200);
    expect(await heard.text()).toContain('<itunes:block>Yes</itunes:block>');

    await mine.getByRole('button', { name: 'Make a new address' }).click();
    await mine
      .getByRole('group', { name: 'Make a new address' })
      .getByRole('button', { name: 'Make a new address' })
      .click();
    await expect(address).not.toHaveValue(first);
    expect((await page.request.get(new URL(first).pathname)).status()).toBe(404);
    expect((await page.request.get(new URL(await address.inputValue()).pathname)).status()).toBe(
      200,
    );
  });
}
