import { expect, STAFF, test } from './fixtures.js';
import { waitForHydration } from './support/visit.js';

// A page of its own (About, Contact…) in the real built site: an owner publishes two pages from
// the desk, which lists them at their addresses; a visitor opens one, drawn whole in the server's
// HTML, and once the app has taken over follows its links within the site: to the other page,
// drawn without a reload, and to a one-word address no page has, the site's 404 page.

const PASSWORD = 'correct horse battery staple';
const TEAM = {
  kind: 'page',
  slug: 'the-team',
  title: 'The Team Behind the Guides',
  description: 'Who writes, edits and checks every guide on this site.',
  body: '## Editors\n\nFour editors read every guide before it goes out.\n',
};
const CONTACT = {
  kind: 'page',
  slug: 'contact-the-team',
  title: 'Contact the Team',
  description: 'How to reach the editors, and how fast they answer.',
  body:
    'Write to the editors: they answer within two days.\n\n' +
    'Read about [the team](/the-team) first, or see [a page that is not there](/not-a-page-here).\n',
};

test('a page of its own is drawn at /<slug> and reached from another page after hydration', async ({
  page,
  signedInElsewhere,
}) => {
  const ownerPage = await signedInElsewhere({ email: STAFF.owner, password: PASSWORD });
  for (const post of [TEAM, CONTACT]) {
    const created = await ownerPage.request.post('/api/desk/posts', { data: post });
    expect(created.status(), await created.text()).toBe(201);
    const { post: draft } = await created.json();
    expect(draft.path).toBe(`/${post.slug}`);
    const published = await ownerPage.request.post(`/api/desk/posts/${draft.id}/publish`, {
      data: { version: draft.version },
    });
    expect(published.status(), await published.text()).toBe(200);
  }
  // The desk's list shows each page at its address.
  await ownerPage.goto('/desk/posts');
  for (const post of [TEAM, CONTACT]) {
    await expect(
      ownerPage.getByRole('link', { name: `/${post.slug}`, exact: true }),
    ).toHaveAttribute('href', `/${post.slug}`);
  }
  await ownerPage.context().close();

  // The first HTML holds the page whole.
  const answer = await page.goto(`/${CONTACT.slug}`);
  expect(answer?.status()).toBe(200);
  expect(await answer?.text()).toContain('they answer within two days');
  await expect(page.getByRole('heading', { level: 1, name: CONTACT.title })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${CONTACT.title} · `));

  // After hydration, a link to the other page is followed in the app, without a reload.
  const link = page.getByRole('link', { name: 'the team', exact: true });
  await waitForHydration(page, 'a[href="/the-team"]');
  await page.evaluate(() => {
    (window as unknown as { stayed: boolean }).stayed = true;
  });
  await link.click();
  await expect(page).toHaveURL(/\/the-team$/);
  await expect(page.getByRole('heading', { level: 1, name: TEAM.title })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Editors' })).toBeVisible();
  await expect(page.getByText('Four editors read every guide')).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${TEAM.title} · `));
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

  // Back, then a link to a one-word address no page has: the 404 page, still in the app.
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: CONTACT.title })).toBeVisible();
  await page.getByRole('link', { name: 'a page that is not there' }).click();
  await expect(page).toHaveURL(/\/not-a-page-here$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
});

test.describe('an address no page has', () => {
  // The browser logs the 404 answer of the page itself.
  test.use({ expectedConsoleErrors: [/status of 404/] });

  test('is the 404 page in the first HTML and after hydration', async ({ page }) => {
    const answer = await page.goto('/no-page-has-this-address');
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await waitForHydration(page, '.not-found a.button');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  });
});
