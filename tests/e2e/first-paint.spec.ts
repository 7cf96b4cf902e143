import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

// What the navbar shows from the first paint, before the app has asked the server who the reader
// is: a signed-in reader never sees "Sign in · Join" flip to "Account", a visitor never sees
// "Account". The session's answer is held back a little, as on a slow connection, so the page is
// painted before it arrives.

/** Every name shown in the navbar's actions at each frame from the first, until the page settles. */
function recordNavbarFrames() {
  const frames: string[][] = [];
  (window as unknown as { navbarFrames: string[][] }).navbarFrames = frames;
  const record = () => {
    const actions = document.querySelector('[data-testid="navbar"] .navbar__actions');
    // A frame drawn while the parser is still inside the navbar shows a link whose text has not
    // arrived yet: what the test is about starts once the HTML after the navbar (<main>) is there.
    const parsedPast = document.readyState !== 'loading' || document.querySelector('main');
    if (actions && parsedPast) {
      const shown = [...actions.querySelectorAll('a, button')]
        .filter((element) => element.checkVisibility())
        .map((element) => (element.textContent ?? '').replace(/\(.*\)/, '').trim());
      const last = frames[frames.length - 1];
      if (!last || last.join('|') !== shown.join('|')) frames.push(shown);
    }
    requestAnimationFrame(record);
  };
  requestAnimationFrame(record);
}

async function navbarFramesOf(page: Page, path: string): Promise<string[][]> {
  await page.route('**/api/session', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  await page.addInitScript(recordNavbarFrames);
  const session = page.waitForResponse((response) => response.url().endsWith('/api/session'));
  await page.goto(path);
  await session;
  await page.waitForLoadState('networkidle');
  // One frame after the session's answer has been drawn.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  return page.evaluate(() => (window as unknown as { navbarFrames: string[][] }).navbarFrames);
}

/**
 * A signed-in reader's navbar on `path`: "Account" from the first paint, none of `never` in any
 * frame, and `last` once the page has settled.
 */
async function expectSignedInNavbar(
  page: Page,
  path: string,
  { never, last }: { never: string[]; last: string[] },
) {
  const frames = await navbarFramesOf(page, path);
  expect(frames[0], 'the first paint').toContain('Account');
  for (const name of never) expect(frames.flat(), JSON.stringify(frames)).not.toContain(name);
  expect(frames[frames.length - 1]).toEqual(last);
}

test('a member sees “Account” from the first paint, never “Sign in” or “Join”', async ({
  page,
  member,
}) => {
  expect(member.email).toContain('@');
  await expectSignedInNavbar(page, '/health', {
    never: ['Sign in', 'Join'],
    last: ['Perks', 'Account'],
  });
});

test('a signed-in reader who is not a member never sees “Sign in”', async ({
  page,
  registered,
}) => {
  expect(registered.email).toContain('@');
  await expectSignedInNavbar(page, '/', { never: ['Sign in'], last: ['Perks', 'Account', 'Join'] });
});

test('a visitor sees “Sign in · Join” from the first paint, never “Account”', async ({ page }) => {
  const frames = await navbarFramesOf(page, '/health/sleep-debt-reset');
  expect(frames[0], 'the first paint').toEqual(['Perks', 'Sign in', 'Join']);
  expect(frames.flat(), JSON.stringify(frames)).not.toContain('Account');
  expect(frames[frames.length - 1]).toEqual(['Perks', 'Sign in', 'Join']);
});
