import { expect, test } from './fixtures.js';
import { newestFirst, readFrontMatter } from './site-content.js';
import { waitForHydration } from './support/visit.js';

test('the home page shows the pitch, the join offer and the newest items of each section', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Your Generation, Better Informed',
  );
  await expect(page.getByText('more than 70 million Americans aged 18 to 41')).toBeVisible();

  const offer = page.getByRole('region', { name: 'Join the cohort' });
  // Payments are off on this site: the offer names no price (plans.spec.ts sees it follow one).
  await expect(offer.getByText('Early access costs about a dollar a month.')).toBeVisible();
  await expect(offer).not.toContainText('for your first year');
  await expect(offer.getByRole('link', { name: 'Get early access' })).toBeHidden();
  await expect(page.locator('.hero').getByRole('link', { name: 'Get early access' })).toBeHidden();

  for (const [section, newest] of [
    ['Health', newestFirst('articles', 'Health')[0]],
    ['Wealth', newestFirst('articles', 'Wealth')[0]],
    ['Direct Action', newestFirst('campaigns', 'Direct Action')[0]],
  ] as const) {
    const region = page.getByRole('region', { name: section, exact: true });
    await expect(region.getByRole('heading', { level: 3 }).first()).toContainText(
      newest?.title ?? '',
    );
  }
  await expect(
    page.getByRole('region', { name: 'Empowerment' }).getByRole('heading', { level: 3 }),
  ).toHaveText([
    'Free University Courses',
    'Emerging Career & Tech Skills',
    'Creative & Communication Skills',
  ]);
});

for (const { path, folder, category } of [
  { path: '/health', folder: 'articles', category: 'Health' },
  { path: '/wealth', folder: 'articles', category: 'Wealth' },
  { path: '/direct-action', folder: 'campaigns', category: 'Direct Action' },
]) {
  test(`${category} puts its newest item first, as the large card, and the rest newest first`, async ({
    page,
  }) => {
    const expected = newestFirst(folder, category).map((item) => item.title);
    await page.goto(path);
    // Campaign titles also tell screen readers that they open in a new tab.
    const titles = page.getByRole('main').getByRole('heading', { level: 2 });
    await expect(titles).toHaveCount(expected.length);
    await expect(titles).toContainText(expected);
    await expect(page.locator('.card--featured')).toHaveCount(1);
    await expect(page.locator('.card--featured').getByRole('heading')).toContainText(
      expected[0] ?? '',
    );
  });
}

test('a reader opens an article from its list and reads its body', async ({ page }) => {
  await page.goto('/health');
  // What the app does on a click (the page's head tags replaced, not a new page loaded).
  await waitForHydration(page, 'a[href="/health/sleep-debt-reset"]');
  await page.getByRole('link', { name: 'The Sleep Debt Reset: How to Actually Catch Up' }).click();

  await expect(page).toHaveURL('/health/sleep-debt-reset');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'The Sleep Debt Reset: How to Actually Catch Up',
  );
  const article = page.getByRole('article').first();
  await expect(article.locator('img')).toHaveAttribute('src', /^\/art\/sleep-debt-reset-/);
  await expect(
    article.getByRole('heading', { level: 2, name: 'How much sleep you actually need' }),
  ).toBeVisible();
  await expect(article.getByText('You know the pattern: five short nights')).toBeVisible();
  await expect(article.getByRole('listitem').first()).toBeVisible();
  await expect(article.getByRole('link', { name: /CDC's sleep pages/ })).toHaveAttribute(
    'rel',
    'noopener noreferrer',
  );

  await expect(page).toHaveTitle('The Sleep Debt Reset: How to Actually Catch Up · Cohort');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    'content',
    /^Short nights add up/,
  );
  // The head tags prerendered for /health described /health: once the reader moves on, they go.
  await expect(page.locator('meta[property="og:url"]')).toHaveCount(0);

  // Loaded directly, as a link preview or a crawler loads it, the article's own tags are there.
  await page.goto('/health/sleep-debt-reset');
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
    'content',
    'The Sleep Debt Reset: How to Actually Catch Up',
  );
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute(
    'content',
    /\/health\/sleep-debt-reset$/,
  );
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
    'content',
    /\/og\/articles\/sleep-debt-reset\.png$/,
  );

  await page.getByRole('link', { name: 'Back to Health' }).click();
  await expect(page).toHaveURL('/health');
  await expect(page).toHaveTitle('Health · Cohort');
  await expect(page.locator('meta[property="og:type"]')).toHaveCount(0);
});

test('campaign cards open the campaign in a new tab, without an opener or referrer', async ({
  page,
  context,
}) => {
  const campaigns = newestFirst('campaigns', 'Direct Action');
  await page.goto('/direct-action');
  await expect(page.getByText('Visit Campaign')).toHaveCount(campaigns.length);
  for (const campaign of campaigns) {
    const link = page.getByRole('link', { name: campaign.title });
    await expect(link).toHaveAttribute('href', campaign.externalLink ?? '');
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  }

  // The campaign's own site is stood in for, so the test needs no internet.
  const newest = campaigns[0];
  await context.route(newest?.externalLink ?? '', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Campaign</title>' }),
  );
  const [tab] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('link', { name: newest?.title }).click(),
  ]);
  await expect(tab).toHaveURL(newest?.externalLink ?? '');
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  expect(await tab.evaluate(() => document.referrer)).toBe('');
});

test('Empowerment shows three groups whose resources open in a new tab', async ({ page }) => {
  const groups = readFrontMatter<{
    id: number;
    category: string;
    description: string;
    resources: { title: string; link: string }[];
  }>('resources').sort((a, b) => a.id - b.id);
  await page.goto('/empowerment');
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText(
    groups.map((group) => group.category),
  );
  for (const group of groups) {
    const region = page.getByRole('region', { name: group.category });
    await expect(region.getByText(group.description)).toBeVisible();
    await expect(region.getByText('Visit Resource')).toHaveCount(group.resources.length);
    for (const resource of group.resources) {
      const link = region.getByRole('link', { name: resource.title });
      await expect(link).toHaveAttribute('href', resource.link);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  }
});

test('Collective Action shows each boycott with its status, reason, alternative and dated updates', async ({
  page,
}) => {
  await page.goto('/collective');
  await expect(page.getByText('A boycott is a simple idea')).toBeVisible();

  const nestle = page.getByRole('article', { name: 'Nestlé Infant-Formula Boycott' });
  await expect(nestle.locator('.status-badge')).toHaveText('Ongoing');
  await expect(nestle.locator('.status-badge')).toHaveClass(/\bongoing\b/);
  await expect(nestle.getByText('Reason:')).toBeVisible();
  await expect(nestle.getByText('Instead, Support:')).toBeVisible();
  await expect(nestle.getByText('Breastfeeding support and the WHO Code')).toBeVisible();
  await expect(nestle.getByText('Latest Updates:')).toBeVisible();
  await expect(nestle.locator('time').first()).toHaveText('October 4, 1988');

  const montgomery = page.getByRole('article', { name: 'Montgomery Bus Boycott' });
  await expect(montgomery.locator('.status-badge')).toHaveClass(/\bsuccess\b/);
  await expect(page.getByRole('article')).toHaveCount(3);
});

test('an image that fails to load is replaced by the placeholder, in the same space', async ({
  page,
}) => {
  await page.route('**/art/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/svg+xml', body: 'not an image' }),
  );
  await page.goto('/wealth');
  const image = page.locator('.card--featured img');
  await expect(image).toHaveAttribute('data-fallback', 'true');
  await expect(image).toHaveAttribute('src', /^data:image\/svg\+xml,/);
  const box = await image.boundingBox();
  expect(box?.width).toBeGreaterThan(0);
  expect(Math.round(((box?.width ?? 0) * 9) / 16)).toBeLessThanOrEqual(
    Math.round(box?.height ?? 0),
  );
});
