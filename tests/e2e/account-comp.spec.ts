import { expect, STAFF, test } from './fixtures.js';

// A comp (time the desk gives, nothing paid) on the member's own account page: named as what it
// is, ending on the day the desk entered.

const OWNER = STAFF.compOwner;
const PASSWORD = 'correct horse battery staple';

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

for (const { name, width, height } of WIDTHS) {
  test(`a member given a comp through 2027-11-24 reads “Free membership (comp), ends on November 24, 2027” (${name})`, async ({
    page,
    signedInElsewhere,
    registered,
  }, testInfo) => {
    // The owner, in a browser of their own, grants the comp from the desk's API.
    const ownerPage = await signedInElsewhere({ email: OWNER, password: PASSWORD });
    const granted = await ownerPage.request.post(`/api/desk/members/${registered.id}/comps`, {
      data: { until: '2027-11-24', reason: 'Guest speaker at the spring meetup' },
    });
    expect(granted.status(), await granted.text()).toBe(200);
    await ownerPage.context().close();

    await page.setViewportSize({ width, height });
    await page.goto('/account');
    const membership = page.getByRole('heading', { name: 'Membership' }).locator('..');
    await expect(membership.locator('.membership-status')).toHaveText(
      'Free membership (comp), ends on November 24, 2027',
    );
    const comp = page.locator('.payment');
    await expect(comp).toHaveCount(1);
    await expect(comp.locator('.payment__what')).toContainText('Free membership (comp), given on');
    await expect(comp.locator('.payment__state')).toHaveText('Free');
    await expect(comp.locator('.payment__covers')).toContainText('to November 24, 2027');
    await expect(membership).not.toContainText('Paid');
    // Not a day late: the comp ends on the day given, whatever today is.
    await expect(membership).not.toContainText('November 25, 2027');
    await page.screenshot({
      path: testInfo.outputPath(`account-comp-${name}.png`),
      fullPage: true,
    });
  });
}
