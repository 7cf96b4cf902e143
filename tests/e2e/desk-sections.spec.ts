import type { Page } from '@playwright/test';
import { expect, signInAs, STAFF, test } from './fixtures.js';
import { openDeskMenu } from './support/desk-menu.js';

// Sections are the publisher's (docs/publishing.md, "Sections and the menu"), at phone and desktop width: an owner adds a section on
// the desk's Sections page, writes an article into it from the editor (its Section offers the new
// one) and publishes it; the site's menu shows the section, and its page lists the article.

const { owner: OWNER } = STAFF;
const PASSWORD = 'correct horse battery staple';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800, section: 'Culture', slug: 'culture' },
  { name: 'phone', width: 390, height: 844, section: 'Culture Phone', slug: 'culture-phone' },
] as const;

/**
 * Opens the site's menu where it is folded behind its toggle (phones), and its "More" where the
 * wide navbar has more sections than its row has room for.
 */
async function openMenu(page: Page) {
  const toggle = page.getByRole('button', { name: 'Open menu' });
  if (await toggle.isVisible()) await toggle.click();
  const more = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'More' });
  if (await more.isVisible()) await more.click();
}

for (const { name, width, height, section, slug } of WIDTHS) {
  test(`an owner adds the section “${section}”, publishes an article into it from the editor, and the menu and its page show it (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });

    await page.goto('/desk');
    await (await openDeskMenu(page)).getByRole('link', { name: 'Sections' }).click();
    await expect(page).toHaveURL('/desk/sections');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sections and navigation');
    const add = page.getByRole('form', { name: 'Add a section' });
    await add.getByLabel('Name').fill(section);
    // The address follows the name until it is typed.
    await expect(add.getByLabel('Address')).toHaveValue(slug);
    await add.getByLabel('Description').fill('Books, films and the arts on a budget.');
    await add.getByRole('button', { name: 'Add section' }).click();
    await expect(page.getByRole('status').first()).toHaveText(
      `Added ${section}: its page is /${slug}.`,
    );
    const sections = page.getByRole('list', { name: 'Sections' });
    await expect(sections.getByRole('heading', { name: new RegExp(`^${section} `) })).toBeVisible();
    await page.screenshot({
      path: testInfo.outputPath(`desk-sections-${name}.png`),
      fullPage: true,
    });

    await page.goto('/desk/posts/new?kind=article');
    const title = `A Free Night at the Museum (${name})`;
    await page.getByRole('textbox', { name: 'Title' }).fill(title);
    await page.getByRole('textbox', { name: 'Body' }).click();
    await page.keyboard.type('Most city museums open their doors for free one evening a month.');
    const sectionField = page.getByRole('combobox', { name: 'Section', exact: true });
    // The sections load with the editor: the new one is offered.
    await expect.poll(() => sectionField.locator('option').allTextContents()).toContain(section);
    await sectionField.selectOption(section);
    await page.getByLabel('Summary').fill('Where and when the doors open for nothing.');
    await page.getByLabel('Address (slug)').fill(`free-museum-night-${name}`);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page).toHaveURL(/\/desk\/posts\/\d+$/);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, publish' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Article · published');

    await page.goto('/');
    await openMenu(page);
    const menu = page.getByRole('navigation', { name: 'Main' });
    await menu.getByRole('link', { name: section, exact: true }).click();
    await expect(page).toHaveURL(`/${slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(section);
    await expect(page.getByText('Books, films and the arts on a budget.')).toBeVisible();
    await expect(page.getByRole('link', { name: new RegExp(`^${escape(title)}`) })).toBeVisible();
    await page.screenshot({
      path: testInfo.outputPath(`culture-page-${name}.png`),
      fullPage: true,
    });

    // The page the server sends already has the section in its menu (no script needed).
    const html = await (await page.request.get('/')).text();
    expect(html).toContain(`href="/${slug}"`);

    await page.getByRole('link', { name: new RegExp(`^${escape(title)}`) }).click();
    await expect(page).toHaveURL(`/${slug}/free-museum-night-${name}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Seven sections in the menu, adding what is missing (the tests above may have added some). */
async function fillMenuToSeven(page: Page) {
  const listed = (await (await page.request.get('/api/desk/sections')).json()) as {
    sections: { inMenu: boolean }[];
  };
  let inMenu = listed.sections.filter((section) => section.inMenu).length;
  for (let n = 1; inMenu < 7; n += 1) {
    const made = await page.request.post('/api/desk/sections', {
      data: { name: `Travel ${n}`, slug: `travel-${n}`, inMenu: true },
    });
    expect(made.status(), await made.text()).toBe(201);
    inMenu += 1;
  }
}

test('with seven sections in the menu the navbar keeps one row at 1200, 1280 and 1300 px, the last ones under “More”; the phone menu lists them all', async ({
  page,
  mailbox,
}, testInfo) => {
  await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
  await fillMenuToSeven(page);
  const { sections } = (await (await page.request.get('/api/desk/sections')).json()) as {
    sections: { name: string; slug: string; inMenu: boolean }[];
  };
  const menuSections = sections.filter((section) => section.inMenu);
  const last = menuSections.at(-1);
  if (!last) throw new Error('No sections in the menu');

  for (const width of [1200, 1280, 1300]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    const navbar = page.getByTestId('navbar');
    const menu = page.getByRole('navigation', { name: 'Main' });
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
    const more = menu.getByRole('button', { name: 'More' });
    await expect(more).toBeVisible();
    // One row: the bar is as tall as ever, and everything in it sits on the same line, inside it.
    const bar = await navbar.boundingBox();
    expect(bar?.height, `navbar height at ${width}px`).toBeLessThanOrEqual(72);
    const rowItems = [
      menu.getByRole('link', { name: menuSections[0]?.name, exact: true }),
      more,
      menu.getByRole('link', { name: 'Search' }),
      menu.getByRole('link', { name: 'Perks' }),
    ];
    const tops: number[] = [];
    for (const item of rowItems) {
      const box = await item.first().boundingBox();
      expect(box, `a navbar item at ${width}px`).not.toBeNull();
      if (!box) continue;
      tops.push(box.y + box.height / 2);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(12);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
    await page.screenshot({ path: testInfo.outputPath(`navbar-seven-${width}.png`) });
    await page.screenshot({ path: `/tmp/shots/h2-navbar-seven-${width}.png` });
  }

  // "More" opens the rest; Escape closes it; a section in it is a link like any other.
  const menu = page.getByRole('navigation', { name: 'Main' });
  const more = menu.getByRole('button', { name: 'More' });
  await more.click();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await page.screenshot({ path: '/tmp/shots/h2-navbar-more-open-1300.png' });
  await page.keyboard.press('Escape');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(more).toBeFocused();
  await more.click();
  await menu.getByRole('link', { name: last.name, exact: true }).click();
  await expect(page).toHaveURL(`/${last.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(last.name);
  await expect(more).toHaveAttribute('aria-expanded', 'false');

  // A visitor's row, with Sign in (and Join, where the site sells), is one row at 1200 px too.
  await page.context().clearCookies();
  await page.setViewportSize({ width: 1200, height: 800 });
  await page.goto('/');
  const signIn = menu.getByRole('link', { name: 'Sign in' });
  await expect(signIn).toBeVisible();
  const join = menu
    .getByRole('button', { name: 'Join' })
    .or(menu.getByRole('link', { name: 'Join' }));
  const rowTops: number[] = [];
  for (const item of [
    menu.getByRole('link', { name: 'Health', exact: true }),
    more,
    signIn,
    ...((await join.count()) > 0 ? [join.first()] : []),
  ]) {
    const box = await item.boundingBox();
    if (box) rowTops.push(box.y + box.height / 2);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(1200);
  }
  expect(Math.max(...rowTops) - Math.min(...rowTops)).toBeLessThan(12);
  await page.screenshot({ path: '/tmp/shots/h2-navbar-seven-visitor-1200.png' });

  // A phone's menu lists every section, no "More".
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await openMenu(page);
  await expect(menu.getByRole('button', { name: 'More' })).toBeHidden();
  for (const section of menuSections) {
    await expect(menu.getByRole('link', { name: section.name, exact: true })).toBeVisible();
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: '/tmp/shots/h2-navbar-seven-390.png', fullPage: true });
});

test('a menu changed in the desk shows at the reader’s next move in the browser, without a new page load', async ({
  page,
  mailbox,
}) => {
  await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });
  const { sections } = (await (await page.request.get('/api/desk/sections')).json()) as {
    sections: { id: number; name: string; inMenu: boolean }[];
  };
  const wealth = sections.find((section) => section.name === 'Wealth');
  if (!wealth?.inMenu) throw new Error('Wealth is not in the menu');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/health');
  const menu = page.getByRole('navigation', { name: 'Main' });
  await expect(menu.getByRole('link', { name: 'Wealth', exact: true })).toBeVisible();
  // Marks this page load: a new load would lose it.
  await page.evaluate(() => {
    (window as unknown as { samePage: boolean }).samePage = true;
  });

  const hidden = await page.request.patch(`/api/desk/sections/${wealth.id}`, {
    data: { inMenu: false },
  });
  expect(hidden.status(), await hidden.text()).toBe(200);
  try {
    await page.getByRole('link', { name: 'All topics' }).click();
    await expect(page).toHaveURL('/topics');
    await expect(menu.getByRole('link', { name: 'Wealth', exact: true })).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(
      true,
    );
  } finally {
    const shown = await page.request.patch(`/api/desk/sections/${wealth.id}`, {
      data: { inMenu: true },
    });
    expect(shown.status()).toBe(200);
  }
});
