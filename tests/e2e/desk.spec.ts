import { EARLY_ACCESS_OFFER, DESK_PATH } from '../../contract/constants.js';
import { paths } from '../../client/src/config/paths.js';
import {
  createArticle,
  expect,
  registerThroughMail,
  signInAs,
  STAFF,
  test,
  uniqueEmail,
} from './fixtures.js';
import type { Browser } from '@playwright/test';
import type { FakeStripe } from '#test/fake-stripe';
import type { SmtpCapture } from '#test/smtp-capture';
import { deliverPaymentSucceeded } from './support/deliver-webhook.js';
import { openDeskMenu } from './support/desk-menu.js';

// The publisher's desk in the real built site: invisible to everyone but staff (the site's own
// 404 page), and for an owner the members list, one member's record with a comp granted from it,
// the dashboard's charts and tables, a post kept for one tier's members and the members of each
// tier, at phone and desktop width.

const { owner: OWNER, editor: EDITOR, writer: WRITER } = STAFF;
const PASSWORD = 'correct horse battery staple';

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

/**
 * Two accounts registered by mail in browsers of their own: a member who paid the early-access
 * year (with `newsletter`, subscribed to it from /account's switch too), and a reader who has not
 * paid.
 */
async function registerMemberAndReader(
  {
    browser,
    site,
    stripe,
    mailbox,
  }: {
    browser: Browser;
    site: { url: string };
    stripe: FakeStripe;
    mailbox: SmtpCapture;
  },
  { newsletter = false } = {},
) {
  const memberEmail = uniqueEmail();
  const readerEmail = uniqueEmail();
  for (const email of [memberEmail, readerEmail]) {
    const context = await browser.newContext({ baseURL: site.url });
    const session = await (await context.request.post('/api/session')).json();
    await registerThroughMail(context.request, mailbox, { email, password: PASSWORD });
    if (email === memberEmail) {
      const intent = stripe.paidPaymentIntent({
        userId: session.user.id,
        offer: EARLY_ACCESS_OFFER,
      });
      expect(await deliverPaymentSucceeded(context.request, site.url, stripe, intent)).toBe(200);
      if (newsletter) {
        const subscribed = await context.request.post('/api/newsletter/subscription', {
          data: { subscribed: true },
        });
        expect(subscribed.status()).toBe(200);
      }
    }
    await context.close();
  }
  return { memberEmail, readerEmail };
}

test('the client names the desk where the server serves it', () => {
  expect(paths.desk).toBe(DESK_PATH);
});

test.describe('to anyone but staff', () => {
  // The browser logs the 404 answer of each desk address.
  test.use({ expectedConsoleErrors: [/status of 404/] });

  test('a visitor and a signed-in reader get the site’s 404 page at /desk, and crawlers are kept out', async ({
    page,
    registered,
  }) => {
    expect(registered.email).toContain('@');
    for (const path of [
      '/desk',
      '/desk/dashboard',
      '/desk/members/00000000-0000-4000-8000-000000000000',
    ]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Desk' })).toHaveCount(0);
    }
    await page.context().clearCookies();
    expect((await page.goto('/desk'))?.status()).toBe(404);
    const robots = await (await page.request.get('/robots.txt')).text();
    expect(robots).toContain('Disallow: /desk');
    expect(await (await page.request.get('/sitemap.xml')).text()).not.toContain('/desk');
  });
});

for (const { name, width, height } of WIDTHS) {
  test(`an owner finds a member, grants a comp, and reads the dashboard (${name})`, async ({
    page,
    browser,
    site,
    stripe,
    mailbox,
  }, testInfo) => {
    if (!stripe) throw new Error('payments are on');
    // A member who paid the early-access year, and a reader who has not paid, in browsers of
    // their own.
    const { memberEmail, readerEmail } = await registerMemberAndReader(
      { browser, site, stripe, mailbox },
      { newsletter: true },
    );

    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
    const response = await page.goto('/desk');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['x-robots-tag']).toBe('noindex');
    await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute(
      'content',
      'noindex, nofollow',
    );
    await expect(page.getByText(`${OWNER} · owner`)).toBeVisible();

    // The newest first: the owner, then the reader and the member registered just before.
    await expect(page.getByRole('link', { name: memberEmail })).toBeVisible();
    await page.getByLabel('Email, user id or Stripe id').fill(memberEmail.slice(0, 20));
    await page.getByLabel('Show').selectOption('paid');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/filter=paid/);
    await expect(page.getByRole('link', { name: memberEmail })).toBeVisible();
    await expect(page.getByRole('link', { name: readerEmail })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      `/api/desk/exports/members?q=${encodeURIComponent(memberEmail.slice(0, 20))}&filter=paid`,
    );
    await page.getByLabel('Show').selectOption('newsletter_subscribed');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/filter=newsletter_subscribed/);
    await expect(page.getByRole('link', { name: memberEmail })).toBeVisible();
    await expect(page.getByRole('link', { name: readerEmail })).toHaveCount(0);
    await expect(page.getByRole('cell', { name: 'Subscribed' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Newsletter subscribers CSV' })).toHaveAttribute(
      'href',
      '/api/desk/exports/newsletter',
    );
    // Everyone, whatever the search, for a move to Ghost.
    await expect(page.getByRole('link', { name: 'All members, Ghost CSV' })).toHaveAttribute(
      'href',
      '/api/desk/exports/members?format=ghost',
    );
    await page.screenshot({
      path: testInfo.outputPath(`desk-members-${name}.png`),
      fullPage: true,
    });

    // The reader's record: no ledger yet; a comp makes them a member.
    await page.getByLabel('Show').selectOption('all');
    await page.getByLabel('Email, user id or Stripe id').fill(readerEmail);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: readerEmail }).click();
    await expect(page.getByRole('heading', { level: 1, name: readerEmail })).toBeVisible();
    await expect(page.getByText('Nothing paid or given yet.')).toBeVisible();
    const lastDay = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Last day (UTC)').fill(lastDay);
    await page.getByLabel(/^Reason/).fill('Guest writer for the winter issue');
    await page.getByRole('button', { name: 'Grant comp' }).click();
    await expect(page.getByRole('status')).toContainText(`Comp granted through ${lastDay}`);
    const ledger = page.getByRole('region', { name: /^Ledger/ });
    await expect(ledger).toContainText('Comp');
    await expect(ledger).toContainText('“Guest writer for the winter issue”');
    await expect(page.getByRole('region', { name: /^Changes from the desk/ })).toContainText(
      `${OWNER} granted a comp`,
    );
    await expect(page.getByText(/Member \(one-time or comp, active\) through/)).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`desk-member-${name}.png`), fullPage: true });

    // The paying member's record links into Stripe's test Dashboard and lists their events.
    await page.goto(`/desk?q=${encodeURIComponent(memberEmail)}`);
    await page.getByRole('link', { name: memberEmail }).click();
    const events = page.getByRole('region', { name: /^Stripe events/ });
    await expect(events.getByRole('link', { name: /payment_intent\.succeeded/ })).toHaveAttribute(
      'href',
      /^https:\/\/dashboard\.stripe\.com\/test\/events\/evt_/,
    );
    await expect(events).toContainText('Applied to the ledger');

    // The dashboard: figures, two charts, the same numbers in tables.
    await (await openDeskMenu(page)).getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    // What the page shows is what the server counted (this worker's earlier tests add members).
    const counted = await (await page.request.get('/api/desk/dashboard')).json();
    expect(counted.activeByPlan.total).toBeGreaterThanOrEqual(2);
    expect(counted.activeByPlan.comp).toBeGreaterThanOrEqual(1);
    const figures = page.getByRole('list', { name: 'Members now' });
    await expect(figures).toContainText(`${counted.activeByPlan.total} members now`);
    await expect(figures).toContainText(`${counted.activeByPlan.comp} on a comp`);
    await expect(figures).toContainText(
      `${counted.activeByPlan.oneTime} by a year paid once or given`,
    );
    await expect(page.locator('.desk-chart canvas')).toHaveCount(2);
    const weekly = page.getByRole('region', { name: 'New and lost members per week' });
    const joined = counted.weeks.reduce(
      (sum: number, week: { newMembers: number }) => sum + week.newMembers,
      0,
    );
    await expect(weekly.getByRole('img')).toHaveAccessibleName(
      new RegExp(`, ${joined} members joined or came back and 0 left`),
    );
    const monthly = page.getByRole('region', { name: 'Revenue and refunds per month' });
    const revenue = (counted.months.at(-1).revenueCents / 100).toFixed(2);
    await expect(monthly.getByRole('row').last()).toContainText(`$${revenue}`);
    await expect(page.getByRole('region', { name: 'Newsletter' })).toContainText(
      `${counted.newsletter.confirmed} subscribers`,
    );
    await page.screenshot({
      path: testInfo.outputPath(`desk-dashboard-${name}.png`),
      fullPage: true,
    });
    // Nothing is wider than the screen.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test('an editor sees everything but every change is off, and says why', async ({
  page,
  mailbox,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, mailbox, { email: EDITOR, password: PASSWORD });
  await page.goto('/desk');
  await expect(page.getByText('editors are read-only')).toBeVisible();
  await page.getByRole('link', { name: EDITOR }).click();
  await expect(page.getByRole('button', { name: 'Grant comp' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Send a password-reset link' })).toBeDisabled();
  await (await openDeskMenu(page)).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('desk-editor-phone.png'), fullPage: true });
});

test('a writer gets the posts part of the desk and its own analytics, and no members, payments or audit log', async ({
  page,
  mailbox,
}) => {
  await signInAs(page, mailbox, { email: WRITER, password: PASSWORD });
  expect((await page.goto('/desk'))?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  await expect(page.getByText(`${WRITER} · writer`)).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Desk' });
  await expect(nav.getByRole('link')).toHaveText(['Posts', 'Analytics', 'Profile']);
  // The shipped posts are listed (50 a page: found by the search), without a way for a writer
  // to publish or unpublish them.
  await page.getByRole('searchbox', { name: 'Words in the title or text' }).fill('Sleep Debt');
  await page.getByRole('button', { name: 'Search' }).click();
  // The title's cell (the row's checkbox cell is named after the post too).
  await expect(page.getByRole('cell', { name: /^The Sleep Debt Reset/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^(Publish|Unpublish) / })).toHaveCount(0);
  const members = await page.request.get('/api/desk/members');
  expect(members.status()).toBe(403);
  expect((await members.json()).error.code).toBe('writers_see_posts_only');
});

for (const { name, width, height } of WIDTHS) {
  test(`an editor publishes a draft from the posts list, after a confirmation naming its address, and takes it down (${name})`, async ({
    page,
    browser,
    site,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: EDITOR, password: PASSWORD });
    const slug = `from-the-list-${name}`;
    const created = await page.request.post('/api/desk/posts', {
      data: {
        kind: 'article',
        slug,
        title: `Published From the List (${name})`,
        category: 'Health',
        summary: 'A draft an editor publishes from the desk.',
        readingMinutes: 2,
        body: 'Written through the API, published from the desk.',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const path = `/health/${slug}`;

    await page.goto('/desk/posts');
    await page.getByLabel('Status').selectOption('draft');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: `Publish Published From the List (${name})` }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(`at ${path}?`);
    await page.screenshot({
      path: testInfo.outputPath(`desk-posts-confirm-${name}.png`),
      fullPage: true,
    });
    await confirm.getByRole('button', { name: 'Yes, publish' }).click();
    // The list's own outcome (the bulk bar has a status line of its own).
    await expect(page.getByRole('status').filter({ hasText: 'is live at' })).toContainText(
      `is live at ${path}`,
    );

    const reader = await browser.newContext({ baseURL: site.url });
    const readerPage = await reader.newPage();
    expect((await readerPage.goto(path))?.status()).toBe(200);
    await expect(
      readerPage.getByRole('heading', { level: 1, name: `Published From the List (${name})` }),
    ).toBeVisible();

    await page.getByLabel('Status').selectOption('published');
    await page.getByLabel('Words in the title or text').fill('Published From the List');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: `Unpublish Published From the List (${name})` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, unpublish' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'is off the site' })).toBeVisible();
    expect((await readerPage.goto(path))?.status()).toBe(410);
    await reader.close();
  });
}

for (const { name, width, height } of WIDTHS) {
  test(`an owner keeps a post for one tier’s members, and finds the paid and the free members by tier (${name})`, async ({
    page,
    browser,
    site,
    stripe,
    mailbox,
  }, testInfo) => {
    if (!stripe) throw new Error('payments are on');
    // Two accounts registered by mail, a tier, a post, three desk pages: more than 30 s on a busy
    // machine.
    test.slow();
    // A member of the first tier (a year paid once) and a free member, in browsers of their own.
    const { memberEmail, readerEmail } = await registerMemberAndReader({
      browser,
      site,
      stripe,
      mailbox,
    });

    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
    const slug = `patron-${name}`;
    const tierName = `Patron ${name}`;
    const made = await page.request.post('/api/desk/tiers', {
      data: { name: tierName, slug, prices: { monthly: 500, yearly: 5000, once: null } },
    });
    expect(made.status(), await made.text()).toBe(201);
    const title = `For Our Patrons (${name})`;
    const draft = await createArticle(page.request, { title, body: 'Thank you, patrons.' });
    try {
      await page.goto(`/desk/posts/${draft.id}`);
      const readers = page.getByRole('group', { name: 'Who can read it' });
      await expect(readers.getByRole('radio', { name: 'Everyone' })).toBeChecked();
      await readers.getByRole('radio', { name: 'Chosen tiers' }).check();
      await expect(readers.getByText('Tick at least one tier.')).toBeVisible();
      await readers.getByRole('checkbox', { name: tierName }).check();
      await expect(readers.getByRole('checkbox', { name: 'Supporter' })).not.toBeChecked();
      await page.getByRole('button', { name: 'Save draft' }).click();
      await expect(page.getByRole('status').first()).toContainText(/^Saved /);
      const saved = (await (await page.request.get(`/api/desk/posts/${draft.id}`)).json()).post;
      expect(saved).toMatchObject({ visibility: 'tiers', tiers: [slug] });
      await readers.scrollIntoViewIfNeeded();
      await readers.screenshot({ path: testInfo.outputPath(`desk-post-readers-${name}.png`) });
      await page.screenshot({
        path: testInfo.outputPath(`desk-post-tiers-${name}.png`),
        fullPage: true,
      });

      // The posts list says who may read it.
      await page.goto(`/desk/posts?q=${encodeURIComponent(title)}`);
      const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: title }) });
      await expect(row.getByText(`Who can read it: ${tierName}`)).toBeVisible();
      await page.screenshot({
        path: testInfo.outputPath(`desk-posts-tier-badge-${name}.png`),
        fullPage: true,
      });

      // The first tier's paying members, then the free ones.
      await page.goto('/desk');
      await page.getByLabel('Show').selectOption('paid');
      await page.getByRole('combobox', { name: 'Tier', exact: true }).selectOption('supporter');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page).toHaveURL(/filter=paid&tier=supporter/);
      const member = page
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: memberEmail }) });
      await expect(member.getByRole('cell', { name: 'Supporter' })).toBeVisible();
      await expect(page.getByRole('link', { name: readerEmail })).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
        'href',
        '/api/desk/exports/members?filter=paid&tier=supporter',
      );
      await page.screenshot({
        path: testInfo.outputPath(`desk-members-tier-${name}.png`),
        fullPage: true,
      });
      await page.getByLabel('Show').selectOption('free');
      await page.getByRole('combobox', { name: 'Tier', exact: true }).selectOption('');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page).toHaveURL(/filter=free$/);
      await expect(page.getByRole('link', { name: readerEmail })).toBeVisible();
      await expect(page.getByRole('link', { name: memberEmail })).toHaveCount(0);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);

      // The dashboard counts each tier's members and money.
      await (await openDeskMenu(page)).getByRole('link', { name: 'Dashboard' }).click();
      const byTier = page.getByRole('region', { name: 'By tier' });
      await expect(byTier.getByRole('row', { name: new RegExp(`^${tierName} 0 `) })).toBeVisible();
      await byTier.scrollIntoViewIfNeeded();
      await byTier.screenshot({ path: testInfo.outputPath(`desk-dashboard-tiers-${name}.png`) });
    } finally {
      // The other specs of this site see its one tier: the post is taken off the tier, then both go.
      const now = (await (await page.request.get(`/api/desk/posts/${draft.id}`)).json()).post;
      await page.request.patch(`/api/desk/posts/${draft.id}`, {
        data: { version: now.version, visibility: 'public', tiers: [] },
      });
      await page.request.delete(`/api/desk/posts/${draft.id}`);
      await page.request.delete(`/api/desk/tiers/${slug}`);
    }
  });
}
