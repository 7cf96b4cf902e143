import { expect, test } from './fixtures.js';
import { visit } from './support/visit.js';

// The sample issues in content/newsletters: one public, one for members.
const PUBLIC_ISSUE = {
  path: '/newsletter/first-issue',
  line: 'Check what your savings account pays',
};
const MEMBERS_ISSUE = {
  path: '/newsletter/members-briefing',
  title: 'Members’ briefing: the year-end money checklist',
  line: 'Top up a retirement account if you can',
};

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

for (const { name, width, height } of WIDTHS) {
  test(`a visitor reads the archive, a public issue in full and a members-only issue’s summary with a way to join (${name})`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height });
    await visit(page, '/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Newsletter' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'The Cohort newsletter' }),
    ).toBeVisible();
    const issues = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 3 }) });
    // Newest first: the members' briefing (November 25) before the first issue (November 24).
    await expect(issues.getByRole('heading', { level: 3 })).toHaveText([
      MEMBERS_ISSUE.title,
      'Welcome to the Cohort newsletter',
    ]);
    await expect(issues.first()).toContainText('Members only');
    await page.screenshot({
      path: testInfo.outputPath(`newsletter-archive-${name}.png`),
      fullPage: true,
    });

    await issues.getByRole('link', { name: 'Welcome to the Cohort newsletter' }).click();
    await expect(page).toHaveURL(PUBLIC_ISSUE.path);
    await expect(page.getByText(PUBLIC_ISSUE.line)).toBeVisible();
    await expect(
      page.getByRole('complementary', { name: 'In this issue' }).getByRole('listitem'),
    ).toHaveCount(3);
    await page.screenshot({
      path: testInfo.outputPath(`newsletter-issue-${name}.png`),
      fullPage: true,
    });

    await page.goto(MEMBERS_ISSUE.path);
    const locked = page.getByRole('region', { name: 'For members' });
    await expect(locked).toContainText('This issue is for members');
    await expect(locked.getByRole('button', { name: /Join/ })).toBeVisible();
    await expect(locked.getByRole('link', { name: 'Already a member? Sign in' })).toBeVisible();
    await expect(page.getByText(MEMBERS_ISSUE.line)).toHaveCount(0);
    await page.screenshot({
      path: testInfo.outputPath(`newsletter-members-issue-visitor-${name}.png`),
      fullPage: true,
    });
  });

  test(`a member reads a members-only issue in full (${name})`, async ({
    page,
    member,
  }, testInfo) => {
    expect(member.email).toContain('@');
    await page.setViewportSize({ width, height });
    await visit(page, MEMBERS_ISSUE.path);
    await expect(page.getByText(MEMBERS_ISSUE.line)).toBeVisible();
    await expect(page.getByRole('region', { name: 'For members' })).toHaveCount(0);
    await page.screenshot({
      path: testInfo.outputPath(`newsletter-members-issue-member-${name}.png`),
      fullPage: true,
    });
  });
}
