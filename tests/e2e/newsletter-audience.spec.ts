import { tokenFromMail, waitForMail } from '#test/registration';
import { createPost, expect, publishPost, signInAs, STAFF, test } from './fixtures.js';

// Who a newsletter issue goes to, chosen in the editor's "Mail it" panel at desktop and phone
// width: an issue for one tier offers that tier by itself, the owner sends it to free members
// instead, the confirmation says how many, and a reader without an account gets the part before
// the line with a link to join, none of the rest.

const PASSWORD = 'correct horse battery staple';
const REST = 'Kingfisher tallies from the inner circle.';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

for (const { name, width, height } of WIDTHS) {
  test(`an owner sends a tier's issue to free members, who get its opening and a link to join (${name})`, async ({
    page,
    mailbox,
  }, testInfo) => {
    const stamp = `${name}-${Date.now()}`;
    // A reader on the list without an account: a free member.
    const reader = `free-${stamp}@example.org`;
    const asked = await page.request.post('/api/newsletter/subscribe', { data: { email: reader } });
    expect(asked.status(), await asked.text()).toBe(202);
    const confirmation = await waitForMail(mailbox, reader);
    const confirmed = await page.request.post('/api/newsletter/confirm', {
      data: { token: tokenFromMail(confirmation.text, '/newsletter/confirm') },
    });
    expect(confirmed.status(), await confirmed.text()).toBe(200);

    await page.setViewportSize({ width, height });
    await signInAs(page, mailbox, { email: STAFF.owner, password: PASSWORD });
    const tiers = await page.request.get('/api/desk/tiers');
    const known = ((await tiers.json()) as { tiers: { slug: string }[] }).tiers;
    if (!known.some((tier) => tier.slug === 'inner-circle')) {
      const made = await page.request.post('/api/desk/tiers', {
        data: { name: 'Inner Circle', prices: { monthly: 900, yearly: 9000, once: null } },
      });
      expect(made.status(), await made.text()).toBe(201);
    }
    const draft = await createPost(page.request, {
      kind: 'newsletter',
      slug: `circle-letter-${stamp}`,
      title: `The Circle Letter (${name})`,
      summary: 'What the inner circle counted this month.',
      visibility: 'tiers',
      tiers: ['inner-circle'],
      body: `Everyone on the list reads this.\n\n<!-- members-only -->\n\n${REST}\n`,
    });
    const post = await publishPost(page.request, draft);

    await page.goto(`/desk/posts/${post.id}`);
    const panel = page.getByRole('region', { name: 'Mail it' });
    const choice = panel.getByRole('group', { name: 'Send to' });
    // Left out, a tier's issue goes to that tier's members.
    await expect(choice.getByRole('radio', { name: /^Chosen tiers/ })).toBeChecked();
    await expect(choice.getByRole('checkbox', { name: /^Inner Circle/ })).toBeChecked();
    await expect(choice.getByRole('checkbox', { name: /^Supporter/ })).not.toBeChecked();
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`newsletter-audience-tiers-${name}.png`) });

    await choice.getByRole('radio', { name: /^Free members/ }).check();
    await expect(panel.getByRole('status')).toContainText(
      /Goes to \d+ confirmed free members? who ha(s|ve) not had it\./,
    );
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(
      /Send “The Circle Letter \(\w+\)” to \d+ free members? now\? Each gets it once\. Those it is not for get it up to its line, with a link to upgrade\./,
    );
    await page.screenshot({ path: testInfo.outputPath(`newsletter-audience-confirm-${name}.png`) });
    await page.getByRole('button', { name: 'Yes, send' }).click();

    const mail = await waitForMail(mailbox, reader, 2, 15_000);
    expect(mail.subject).toBe(`The Circle Letter (${name})`);
    expect(mail.text).toContain('Everyone on the list reads this.');
    expect(mail.text).toContain('Available on Inner Circle. Join to read the rest');
    expect(`${mailbox.mailsTo(reader)[1]?.html}${mail.text}`).not.toContain('Kingfisher');
    await expect(panel.getByRole('status')).toContainText(
      'All the confirmed free members have had it.',
    );
    await panel.screenshot({ path: testInfo.outputPath(`newsletter-audience-sent-${name}.png`) });
  });
}
