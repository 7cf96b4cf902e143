import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '#test/factories';
import { waitForMail } from '#test/registration';
import { newVisitor } from '#test/visitor';
import { giveAndPay, withGivingSite, type Site } from '#test/with-site';

// The publication's name is its settings' title, read when a mail is written or an answer given,
// not SITE_NAME at start-up: after a rename in the desk, a gift's mail, its Stripe payment and the
// Ghost Content API's settings say the new name, with no restart.

const OWNER = 'rename-owner@example.com';
const EDITOR = 'rename-editor@example.com';

describe('the publication’s name after a rename in the desk', () => {
  let t: Site;
  let owner: Member;

  beforeAll(async () => {
    ({ site: t, owner } = await withGivingSite(
      { owner: OWNER, editor: EDITOR },
      { SITE_NAME: 'Before The Rename' },
    ));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('names the site by its new title in gift mails, the gift’s payment and the Content API', async () => {
    const renamed = await t.call(owner, 'PATCH', '/api/desk/settings', {
      title: 'After The Rename',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);

    const visitor = await newVisitor(t.app);
    const paymentIntentId = await giveAndPay(t, visitor, '/api/gifts', {
      recipientEmail: 'renamed-friend@example.com',
      buyerEmail: 'renamed-giver@example.com',
      fromName: 'Ada',
    });
    expect(t.stripe.get(paymentIntentId)).toMatchObject({
      description: 'After The Rename: a year of membership, given to renamed-friend@example.com',
    });
    const receipt = await waitForMail(t.mailbox, 'renamed-giver@example.com');
    expect(receipt.subject).toBe(
      'Your gift of After The Rename to renamed-friend@example.com: receipt',
    );
    expect(receipt.text).not.toContain('Before The Rename');
    const link = await waitForMail(t.mailbox, 'renamed-friend@example.com');
    expect(link.subject).toBe('Ada gave you a year of After The Rename');

    const made = await t.call(owner, 'POST', '/api/desk/integrations', { name: 'Front end' });
    expect(made.statusCode, made.body).toBe(201);
    const key = String(made.json().integration.contentKey);
    const settings = await t.app.inject({ url: `/ghost/api/content/settings/?key=${key}` });
    expect(settings.statusCode, settings.body).toBe(200);
    expect(settings.json().settings.title).toBe('After The Rename');
  });
});
