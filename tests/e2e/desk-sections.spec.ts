import type { Page } from '@playwright/test';
import { expect, signInAs, STAFF, test } from './fixtures.js';

// Sections are the publisher's (docs/publishing.md, "Sections and the menu"), at phone and desktop width: an owner adds a section on
// the desk's Sections page, writes an article into it from the editor (its Section offers the new
// one) and publishes it; the site's menu shows the section, and its page lists the article.

const { owner: OWNER } = STAFF;
const PASSWORD = 'correct horse battery staple';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800, section: 'Culture', slug: 'culture' },
  { name: 'phone', width: 390, height: 844, section: 'Culture Phone', slug: 'culture-phone' },
] as const;

/** Opens the site's menu where it is folded behind its toggle (phones). */
async function openMenu(page: Page) {
  const toggle = page.getByRole('button', { name: 'Open menu' });
  if (await toggle.isVisible()) await toggle.click();
}

for (const { name, width, height, section, slug } of WIDTHS) {
  test(`an owner adds the section “${section}”, publishes an article into it from the editor, and the menu and its page show it (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: OWNER, password: PASSWORD });

    await page.goto('/desk');
    await page
      .getByRole('navigation', { name: 'Desk' })
      .getByRole('link', { name: 'Sections' })
      .click();
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
