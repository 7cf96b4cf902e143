import type { Page } from '@playwright/test';
import type { HomeSettings } from '../../contract/site-settings.js';
import { expect, signInAs, STAFF, test } from './fixtures.js';
import { newestFirst } from './site-content.js';
import { visit } from './support/visit.js';

// The home page is its owners' (settings.home): on the desk's Home page an owner writes the hero,
// puts Wealth above Health and leaves Empowerment out, pins an article and picks the magazine
// layout; a reader's home page shows all of it, drawn by the server, at phone and desktop width.

const PASSWORD = 'correct horse battery staple';
const HERO = 'Field Notes From Home';
// An older Health article, so that pinning it changes what leads the page.
const PINNED = newestFirst('articles', 'Health')[2]?.title ?? '';

/** The home page's rows of cards, by their headings, top to bottom. */
const rowHeadings = (page: Page) =>
  page.locator('.home-lists > .highlights').getByRole('heading', { level: 2 }).allTextContents();

test('an owner sets the home page in the desk, and readers see it at 390 and 1280 px', async ({
  page,
  browser,
  mailbox,
}, testInfo) => {
  // The desk, then two readers' pages, each drawn whole for its screenshot.
  test.slow();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
  // The site's home as the other specs of this site find it, put back at the end.
  const before = (await (await page.request.get('/api/desk/settings')).json()) as {
    settings: { home: HomeSettings };
  };
  try {
    await page.goto('/desk');
    await page
      .getByRole('navigation', { name: 'Desk' })
      .getByRole('link', { name: 'Home page' })
      .click();
    await expect(page).toHaveURL('/desk/home');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Home page');
    const form = page.getByRole('form', { name: 'Home page' });

    // The hero: a heading, its words, and a button going to the Wealth section.
    await form.getByRole('radio', { name: /^A hero/ }).check();
    await form.getByRole('textbox', { name: 'Heading' }).fill(HERO);
    await form
      .getByRole('textbox', { name: 'Text', exact: true })
      .fill('What we learned this week about money and health.');
    await form.getByRole('checkbox', { name: 'A button' }).check();
    await form.getByRole('textbox', { name: 'Button label' }).fill('Read about money');
    await form.getByRole('textbox', { name: 'Button goes to' }).fill('/wealth');

    // The sections: chosen now, Wealth moved up with the keyboard, Empowerment left out.
    await form.getByRole('checkbox', { name: /^Every section in the menu/ }).uncheck();
    const chosen = form.getByRole('list', { name: 'Sections on the home page' });
    await chosen.getByRole('button', { name: 'Move Wealth up' }).focus();
    await page.keyboard.press('Enter');
    // First now, it cannot go up: the focus stays on it, on the button that still works.
    await expect(chosen.getByRole('button', { name: 'Move Wealth down' })).toBeFocused();
    await chosen.getByRole('button', { name: 'Remove Empowerment' }).click();
    await expect(chosen.getByRole('listitem')).toHaveText([
      /^Wealth/,
      /^Health/,
      /^Direct Action/,
      /^Collective Action/,
    ]);

    // A pinned article, found by its words.
    await form.getByRole('searchbox', { name: 'Find an article to pin' }).fill(PINNED);
    await form.getByRole('button', { name: `Pin ${PINNED}` }).click();
    await expect(
      form.getByRole('list', { name: 'Featured articles' }).locator('.desk-home__name'),
    ).toHaveText([PINNED]);

    await form.getByRole('radio', { name: /^Magazine/ }).check();
    await page.screenshot({ path: testInfo.outputPath('desk-home-1280.png'), fullPage: true });
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toHaveText(
      'Saved: the home page shows it now.',
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath('desk-home-390.png'), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );

    // A reader, signed out, at each width.
    for (const { name, width, height } of [
      { name: 'phone', width: 390, height: 844 },
      { name: 'desktop', width: 1280, height: 900 },
    ]) {
      const context = await browser.newContext({ viewport: { width, height } });
      const reader = await context.newPage();
      await visit(reader, '/');
      await expect(reader.getByRole('heading', { level: 1 })).toHaveText(HERO);
      await expect(reader.getByRole('link', { name: 'Read about money' })).toHaveAttribute(
        'href',
        '/wealth',
      );
      expect(await rowHeadings(reader)).toEqual([
        'Featured',
        'Wealth',
        'Health',
        'Direct Action',
        'Collective Action',
      ]);
      const lead = reader.locator('.home-lists--magazine .highlights--lead .card--featured');
      await expect(lead.getByRole('heading', { level: 3 })).toHaveText(PINNED);
      // The lead story is the largest card on the page.
      const leadBox = await lead.boundingBox();
      const otherBox = await reader
        .getByRole('region', { name: 'Wealth' })
        .locator('.card')
        .first()
        .boundingBox();
      expect((leadBox?.height ?? 0) * (leadBox?.width ?? 0)).toBeGreaterThan(
        2 * (otherBox?.height ?? 0) * (otherBox?.width ?? 0),
      );
      expect(await reader.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      await reader.screenshot({
        path: testInfo.outputPath(`home-magazine-${name}.png`),
        fullPage: true,
      });
      await context.close();
    }
  } finally {
    const restored = await page.request.patch('/api/desk/settings', {
      data: { home: before.settings.home },
    });
    expect(restored.status(), await restored.text()).toBe(200);
  }
});
