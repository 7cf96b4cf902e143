import { expect, test } from './fixtures.js';

// The navbar's social link comes from SOCIAL_URL (without it: navigation.spec.ts, no link).

test("the navbar links to the site's profile, named by its host, in a new tab", async ({
  page,
}) => {
  await page.goto('/');
  const social = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /^Instagram/ });
  await expect(social).toHaveAttribute('href', 'https://www.instagram.com/cohort.example/');
  await expect(social).toHaveAttribute('target', '_blank');
  await expect(social).toHaveAttribute('rel', 'noopener noreferrer');
});
