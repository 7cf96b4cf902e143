import { expect, STAFF, test } from './fixtures.js';

// A members-only article in the real built site: a visitor reads its opening and a Join box; a
// member opens the same address and reads it whole, the Join box never drawn, not even for a
// moment; at phone and desktop width.

const OWNER = STAFF.membersOnlyOwner;
const PASSWORD = 'correct horse battery staple';
const SECRET = 'Members read this paragraph and nobody else.';

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

for (const { name, width, height } of WIDTHS) {
  test(`a visitor reads the opening and how to join; a member reads it whole from the first paint (${name})`, async ({
    page,
    browser,
    site,
    signedInElsewhere,
    registered,
  }, testInfo) => {
    // The owner publishes the article and gives the reader a comp, from the desk's API.
    const ownerPage = await signedInElsewhere({ email: OWNER, password: PASSWORD });
    const created = await ownerPage.request.post('/api/desk/posts', {
      data: {
        kind: 'article',
        slug: `for-members-${name}`,
        title: 'What Your Landlord Cannot Ask For',
        category: 'Wealth',
        summary: 'Deposits, fees and questions a landlord may not put to you, state by state.',
        readingMinutes: 5,
        visibility: 'members',
        body: `Everyone reads this opening: what a deposit is for.\n\n<!-- members-only -->\n\n## The checklist\n\n${SECRET}\n`,
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { post } = await created.json();
    const published = await ownerPage.request.post(`/api/desk/posts/${post.id}/publish`, {
      data: { version: post.version },
    });
    expect(published.status(), await published.text()).toBe(200);
    const comp = await ownerPage.request.post(`/api/desk/members/${registered.id}/comps`, {
      data: { until: '2027-11-24', reason: 'A reader of the members-only test' },
    });
    expect(comp.status(), await comp.text()).toBe(200);

    // A visitor, in a browser of their own.
    const visitorContext = await browser.newContext({
      baseURL: site.url,
      viewport: { width, height },
    });
    const visitor = await visitorContext.newPage();
    const answer = await visitor.goto(post.path);
    expect(answer?.status()).toBe(200);
    expect(await answer?.text()).not.toContain(SECRET);
    await expect(visitor.getByRole('heading', { level: 1, name: post.title })).toBeVisible();
    await expect(visitor.getByText('Everyone reads this opening')).toBeVisible();
    const box = visitor.getByRole('region', { name: 'The rest is for members' });
    await expect(box).toBeVisible();
    // This site takes no payments: no Join, only signing in (payments-off.spec.ts).
    await expect(box.getByRole('link', { name: 'Already a member? Sign in' })).toBeVisible();
    await expect(box.getByRole('button', { name: /Join/ })).toBeHidden();
    await expect(visitor.getByText(SECRET)).toHaveCount(0);
    await visitor.screenshot({
      path: testInfo.outputPath(`members-only-visitor-${name}.png`),
      fullPage: true,
    });
    await visitorContext.close();

    // The member: the page's own HTML holds it all, and the Join box never appears.
    await page.setViewportSize({ width, height });
    await page.addInitScript(() => {
      const seen = { box: false };
      (window as unknown as { membersBoxSeen: typeof seen }).membersBoxSeen = seen;
      new MutationObserver(() => {
        if (document.getElementById('members-only-title')) seen.box = true;
      }).observe(document, { childList: true, subtree: true });
    });
    const whole = await page.goto(post.path);
    expect(whole?.status()).toBe(200);
    expect(whole?.headers()['cache-control']).toBe('private, no-cache');
    expect(await whole?.text()).toContain(SECRET);
    await expect(page.getByText(SECRET)).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'The checklist' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(
      await page.evaluate(
        () => (window as unknown as { membersBoxSeen: { box: boolean } }).membersBoxSeen.box,
      ),
    ).toBe(false);
    await page.screenshot({
      path: testInfo.outputPath(`members-only-member-${name}.png`),
      fullPage: true,
    });
    await ownerPage.context().close();
  });
}
