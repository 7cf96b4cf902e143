import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { waitForHydration } from './support/visit.js';

// Search, topics and related reading as a reader meets them, on the shipped content.

test('a reader searches as they type from the navbar, with a slip, and follows a result', async ({
  page,
}) => {
  await page.goto('/');
  await waitForHydration(page, '.navbar__search');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Search', exact: true })
    .click();
  await expect(page).toHaveURL('/search');
  const box = page.getByRole('searchbox', { name: 'Search for' });
  await expect(box).toBeFocused();

  // Typed as a reader types: a slip in the first word, the last one unfinished.
  await box.pressSequentially('studnet lo', { delay: 40 });
  const status = page.getByRole('status');
  await expect(status).toHaveText(/results? for “studnet lo”/);
  await expect(page).toHaveURL('/search?q=studnet+lo');
  const first = page.locator('.search-result').first();
  await expect(first.getByRole('heading')).toHaveText(
    'Student Loans: Repayment Plans, Forgiveness and Avoiding Scams',
  );
  await expect(first.locator('mark').first()).toBeVisible();

  await first.getByRole('link').click();
  await expect(page).toHaveURL('/wealth/student-loans-repayment-forgiveness');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Student Loans');
  // Back: the same results, from the address.
  await page.goBack();
  await expect(box).toHaveValue('studnet lo');
  await expect(status).toHaveText(/results? for “studnet lo”/);
});

/**
 * Holds back the answer to the search for exactly `query` until `release()`: `asked` settles once
 * the page has asked for it.
 */
async function holdAnswer(page: Page, query: string) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const path = `/api/search?q=${encodeURIComponent(query)}`;
  await page.route(`**${path}`, async (route) => {
    await held;
    await route.continue().catch(() => {});
  });
  const asked = page.waitForRequest((request) => request.url().endsWith(path));
  return { asked, release };
}

test('an answer overtaken by a newer query is never shown', async ({ page }) => {
  await page.goto('/search');
  await waitForHydration(page, '#search-q');
  // The first query's answer is held back until after the second's has arrived.
  const { asked, release } = await holdAnswer(page, 'sleep');
  const box = page.getByRole('searchbox', { name: 'Search for' });
  await box.fill('sleep');
  await asked;
  await box.fill('budget');
  const status = page.getByRole('status');
  await expect(status).toHaveText(/results? for “budget”/);
  release();
  await page.waitForTimeout(500);
  await expect(status).toHaveText(/results? for “budget”/);
  await expect(page.locator('.search-result').first().getByRole('heading')).toContainText('Budget');
  await expect(page).toHaveURL('/search?q=budget');
});

test('what the reader typed after a query stays in the box when that query’s answer arrives', async ({
  page,
}) => {
  await page.goto('/search');
  await waitForHydration(page, '#search-q');
  const { asked, release } = await holdAnswer(page, 'loan');
  const box = page.getByRole('searchbox', { name: 'Search for' });
  await box.fill('loan');
  await asked;
  // Typing on while "loan" is on its way; its answer arrives before the pause ends.
  await box.press('End');
  await box.press('s');
  release();
  await expect(page.getByRole('status')).toHaveText(/results? for “loans”/);
  await expect(box).toHaveValue('loans');
  await expect(page).toHaveURL('/search?q=loans');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the search form sends the query and the page the server drew shows the results', async ({
    page,
  }) => {
    await page.goto('/');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Search', exact: true })
      .click();
    const box = page.getByRole('searchbox', { name: 'Search for' });
    await box.fill('boycott');
    await box.press('Enter');
    await expect(page).toHaveURL('/search?q=boycott');
    await expect(page.getByRole('status')).toHaveText(/results for “boycott”/);
    const result = page.getByRole('link', { name: 'Montgomery Bus Boycott' });
    await result.click();
    await expect(page).toHaveURL('/collective#montgomery-bus-boycott');
    await expect(
      page.getByRole('heading', { name: 'Montgomery Bus Boycott', level: 2 }),
    ).toBeInViewport();
  });
});

test('an article names its topics, each leading to its page, and offers related reading', async ({
  page,
}) => {
  await page.goto('/wealth/rent-vs-buy');
  await waitForHydration(page, '.article__topics a');
  const topics = page.getByRole('list', { name: 'Topics' });
  await expect(topics.getByRole('link')).toHaveText(['Housing', 'Budgeting']);

  const related = page.getByRole('complementary', { name: 'Related reading' });
  await expect(related.getByRole('heading', { level: 3 })).toHaveCount(3);
  await expect(related.getByRole('heading', { level: 3 })).not.toContainText([
    'Rent vs. Buy: How to Actually Decide',
  ]);

  await topics.getByRole('link', { name: 'Housing' }).click();
  await expect(page).toHaveURL('/topics/housing');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Housing');
  await expect(
    page.getByRole('region', { name: 'Articles' }).getByRole('heading', { level: 3 }),
  ).toHaveText(['Rent vs. Buy: How to Actually Decide']);
  await expect(
    page.getByRole('region', { name: 'Campaigns' }).getByRole('heading', { level: 3 }),
  ).toContainText(['Legal Aid for Renters']);
  await expect(page.getByRole('link', { name: 'Follow Housing by RSS' })).toHaveAttribute(
    'href',
    '/topics/housing/rss.xml',
  );
  await page.getByRole('main').getByRole('link', { name: 'All topics' }).click();
  await expect(page).toHaveURL('/topics');
  await expect(page.getByRole('link', { name: /^Housing/ })).toBeVisible();
});
