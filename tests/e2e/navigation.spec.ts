import { expect, test } from './fixtures.js';
import { waitForHydration } from './support/visit.js';

const sections = [
  { link: 'Health', path: '/health', heading: 'Health' },
  { link: 'Wealth', path: '/wealth', heading: 'Wealth' },
  { link: 'Direct Action', path: '/direct-action', heading: 'Direct Action' },
  { link: 'Collective Action', path: '/collective', heading: 'Collective Action' },
  { link: 'Empowerment', path: '/empowerment', heading: 'Empowerment' },
];

test('every navbar link takes a reader to its screen', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const section of sections) {
    await nav.getByRole('link', { name: section.link, exact: true }).click();
    await expect(page).toHaveURL(section.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(section.heading);
    await expect(page).toHaveTitle(`${section.heading} · Cohort`);
    await expect(nav.getByRole('link', { name: section.link, exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
  }

  // No Join on this site without payments (payments-off.spec.ts; with them, payments.spec.ts);
  // Sign in leads to its page.
  await expect(nav.getByRole('button', { name: /^Join/ })).toBeHidden();
  await nav.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL('/login');

  await nav.getByRole('link', { name: 'Cohort' }).click();
  await expect(page).toHaveURL('/');
  await expect(page).toHaveTitle('Cohort · Your Generation, Better Informed');
});

test('without SOCIAL_URL the navbar shows no social link', async ({ page }) => {
  const config = page.waitForResponse((response) => response.url().endsWith('/api/config'));
  await page.goto('/');
  await config;
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expect(nav.locator('.navbar__social')).toHaveCount(0);
  await expect(nav.getByRole('link', { name: /Instagram|Social/ })).toHaveCount(0);
});

test('the navbar is transparent at the top and turns solid once scrolled past 99 px', async ({
  page,
}) => {
  await page.goto('/health');
  const navbar = page.getByTestId('navbar');
  await expect(navbar).toHaveClass(/navbar--transparent/);

  await page.evaluate(() => window.scrollTo(0, 99));
  await expect(navbar).toHaveClass(/navbar--transparent/);

  await page.evaluate(() => window.scrollTo(0, 100));
  await expect(navbar).toHaveClass(/navbar--solid/);

  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(navbar).toHaveClass(/navbar--transparent/);
});

test('a reader who scrolls while the page is still loading gets a solid navbar, and stays where they scrolled', async ({
  page,
}) => {
  // Scrolled as soon as the article's text has arrived, before the app has taken the page over:
  // the navbar must turn solid by the time it has, and the page must not jump back to the top
  // (a page part thrown away and drawn again does both). A few loads: it was a race.
  for (let load = 0; load < 4; load += 1) {
    await page.goto('/health/sleep-debt-reset', { waitUntil: 'commit' });
    await page.locator('article.article').waitFor({ state: 'attached' });
    await page.evaluate(() => window.scrollTo(0, 600));
    await waitForHydration(page, 'article.article .back-link a');
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('navbar')).toHaveClass(/navbar--solid/);
    expect(await page.evaluate(() => window.scrollY)).toBe(600);
  }
});

for (const width of [390, 1280]) {
  test(`the navbar stays at the top of the window at every scroll position (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/wealth');
    const navbar = page.getByTestId('navbar');
    for (const y of [0, 1, 50, 99, 100, 400, 50, 0]) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(y);
      // Not just "fixed" in the stylesheet: the bar's top edge is the window's.
      await expect.poll(async () => (await navbar.boundingBox())?.y, `at ${y} px`).toBe(0);
    }
  });
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu opens and closes with its toggle', async ({ page }) => {
    await page.goto('/');
    const healthLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', {
      name: 'Health',
      exact: true,
    });
    await expect(healthLink).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(healthLink).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await expect(page.getByTestId('navbar')).toHaveClass(/navbar--solid/);

    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect(healthLink).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  test('Escape closes the menu and puts focus back on the toggle', async ({ page }) => {
    await page.goto('/wealth');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Health' })
      .focus();

    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Health' }),
    ).toBeHidden();
  });

  test('following a link in the menu closes it, even to the page already shown', async ({
    page,
  }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await nav.getByRole('link', { name: 'Collective Action' }).click();
    await expect(page).toHaveURL('/collective');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Collective Action');
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Collective Action' })).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await nav.getByRole('link', { name: 'Collective Action' }).click();
    await expect(nav.getByRole('link', { name: 'Collective Action' })).toBeHidden();
  });
});

test.describe('unknown addresses', () => {
  // The server answers them with a real 404, which Chromium reports as a console error.
  test.use({ expectedConsoleErrors: [/status of 404/] });

  test('an unknown address, an unknown article and an article under the wrong section show the 404 page', async ({
    page,
  }) => {
    for (const path of ['/no-such-page', '/health/no-such-article', '/wealth/sleep-debt-reset']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
      await expect(page).toHaveTitle('Page not found · Cohort');
      await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute(
        'href',
        '/',
      );
    }
  });
});

test("the old demo's addresses lead to the pages that replaced them", async ({ page }) => {
  for (const [from, to] of [
    ['/landing-page', '/early-access'],
    ['/register-page', '/register'],
    ['/profile-page', '/account'],
  ] as const) {
    await page.goto(from);
    await expect(page).toHaveURL(to);
  }
});

test('each topic page in the footer shows its intro and the related articles and resources', async ({
  page,
}) => {
  await page.goto('/');
  const footer = page.getByRole('navigation', { name: 'More from Cohort' });
  for (const [title, path, related] of [
    ['Home Buying', '/home-buying', 'Rent vs. Buy: How to Actually Decide'],
    ['Student Debt Relief', '/student-debt-relief', 'Free University Courses'],
    ['Work and Jobs', '/work-and-jobs', 'The Salary Negotiation Playbook'],
    ['Media', '/media', 'Creative & Communication Skills'],
    ['Legal Resources', '/legal-resources', 'Legal Aid for Renters'],
  ] as const) {
    await footer.getByRole('link', { name: title }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page).toHaveTitle(`${title} · Cohort`);
    // The operator's intro, said to be a template until it is adapted.
    await expect(page.locator('.intro p').first()).not.toBeEmpty();
    await expect(page.getByText('operator has yet to adapt it')).toBeVisible();
    const relatedList = page.getByRole('region', { name: 'Related on Cohort' });
    expect(await relatedList.getByRole('listitem').count()).toBeGreaterThanOrEqual(3);
    await expect(relatedList.getByRole('link', { name: new RegExp(`^${related}`) })).toBeVisible();
  }

  // A related article is a real link into its section.
  await page.goto('/home-buying');
  await page.getByRole('link', { name: 'Rent vs. Buy: How to Actually Decide' }).click();
  await expect(page).toHaveURL('/wealth/rent-vs-buy');
});

test('the footer links to the privacy policy, the terms and the refund policy', async ({
  page,
}) => {
  await page.goto('/');
  const policies = page.getByRole('navigation', { name: 'Site policies' });
  for (const [link, path, heading, text] of [
    ['Privacy policy', '/privacy', 'Privacy Policy', /cohort_session/],
    ['Terms of use', '/terms', 'Terms of Use', /renews each year/],
    ['Refunds', '/refunds', 'Refunds', /membership time that payment paid for ends/],
  ] as const) {
    await policies.getByRole('link', { name: link }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page.getByRole('main')).toContainText(text);
    await expect(page.getByText('operator has yet to adapt it')).toBeVisible();
  }
});

test('a keyboard user can skip straight to the content', async ({ page }) => {
  await page.goto('/health');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Health');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
});
