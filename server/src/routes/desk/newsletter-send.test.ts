import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember } from '#test/factories';
import { SmtpCapture } from '#test/smtp-capture';
import { withSite, type Site } from '#test/with-site';

// A newsletter issue written and mailed from the desk, through the real app, PostgreSQL, the
// delivery queue and an SMTP server run in the test: a test copy to the staff member alone, then
// the issue to every confirmed subscriber, once, after a confirmation naming how many.

const OWNER = 'owner@example.com';
const WRITER = 'writer@example.com';
const SUBSCRIBERS = ['ada@example.org', 'grace@example.org', 'linus@example.org'];

describe('a newsletter issue mailed from the desk', () => {
  let mailbox: SmtpCapture;
  let t: Site;
  let owner: string;
  let writer: string;

  const call = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });

  async function waitFor(check: () => boolean, what: string) {
    const until = Date.now() + 15_000;
    while (!check()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    mailbox = await new SmtpCapture().start();
    t = await withSite({
      env: { STAFF_EMAILS: OWNER, WRITER_EMAILS: WRITER, SMTP_URL: mailbox.url },
    });
    [{ cookie: owner }, { cookie: writer }] = await Promise.all([
      buildMember(t, { role: 'owner' }),
      buildMember(t, { role: 'writer' }),
    ]);
    // Three confirmed subscribers, and one who never confirmed (never mailed).
    for (const [index, email] of [...SUBSCRIBERS, 'pending@example.org'].entries()) {
      await t.database.pool.query(
        `INSERT INTO newsletter_subscribers (id, email, state, "confirmedAt", "updatedAt")
         VALUES ($1, $2, $3, now(), now())`,
        [randomUUID(), email, index < SUBSCRIBERS.length ? 'confirmed' : 'pending'],
      );
    }
  });
  afterAll(async () => {
    await t?.close();
    await mailbox?.stop();
  });

  it('mails a test copy to the staff member, then the issue once to each confirmed subscriber', async () => {
    const created = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'newsletter',
      slug: 'winter-letter',
      title: 'The Winter Letter',
      summary: 'What we did this winter, and what comes next.',
      body: '## Hello\n\nThe first words of the winter letter.\n',
    });
    expect(created.statusCode, created.body).toBe(201);
    const post = created.json().post;
    const url = `/api/desk/posts/${post.id}/newsletter`;

    const status = await call(owner, 'GET', url);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json().status).toMatchObject({ recipients: 3, sending: false, mailing: true });

    // A test copy, with an unsaved change in it, to the staff member only.
    const test = await call(owner, 'POST', `${url}/test`, { title: 'The Winter Letter (draft)' });
    expect(test.statusCode, test.body).toBe(200);
    await waitFor(
      () => mailbox.mailsTo(OWNER).some((m) => m.subject.startsWith('[Test]')),
      'the test copy',
    );
    const copy = mailbox.mailsTo(OWNER).find((m) => m.subject.startsWith('[Test]'));
    expect(copy?.subject).toContain('The Winter Letter (draft)');
    expect(copy?.text).toContain('The first words of the winter letter.');
    for (const email of SUBSCRIBERS) expect(mailbox.mailsTo(email)).toHaveLength(0);

    // Not before it is published; a writer never; and only for the count the desk showed.
    expect((await call(owner, 'POST', `${url}/send`, { recipients: 3 })).json()).toMatchObject({
      error: { code: 'publish_first' },
    });
    const publish = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(publish.statusCode, publish.body).toBe(200);
    expect((await call(writer, 'POST', `${url}/send`, { recipients: 3 })).statusCode).toBe(403);
    const stale = await call(owner, 'POST', `${url}/send`, { recipients: 2 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      error: { code: 'recipients_changed' },
      status: { recipients: 3 },
    });
    expect((await call(owner, 'POST', `${url}/send`, { recipients: 'all' })).statusCode).toBe(400);

    const send = await call(owner, 'POST', `${url}/send`, { recipients: 3 });
    expect(send.statusCode, send.body).toBe(202);
    await waitFor(
      () => SUBSCRIBERS.every((email) => mailbox.mailsTo(email).length === 1),
      'the issue',
    );
    expect(mailbox.mailsTo('pending@example.org')).toHaveLength(0);
    expect(mailbox.mailsTo(SUBSCRIBERS[0] ?? '')[0]?.subject).toContain('The Winter Letter');
    let after = (await call(owner, 'GET', url)).json().status;
    const until = Date.now() + 10_000;
    while (after.sending && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = (await call(owner, 'GET', url)).json().status;
    }
    expect(after).toMatchObject({
      recipients: 0,
      deliveries: { sent: 3, queued: 0 },
      sending: false,
    });

    // Sent again: nobody gets it twice.
    const again = await call(owner, 'POST', `${url}/send`, { recipients: 0 });
    expect(again.statusCode).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const email of SUBSCRIBERS) expect(mailbox.mailsTo(email)).toHaveLength(1);

    const audit = await t.database.pool.query(
      `SELECT "actorEmail", after FROM audit_log WHERE action = 'newsletter_send'`,
    );
    expect(audit.rows[0]).toMatchObject({
      actorEmail: OWNER,
      after: { slug: 'winter-letter', recipients: 3 },
    });
  });

  it('mails a members-only article as an issue: whole to members, up to its line with a call to join to the others', async () => {
    const SECRET = 'The members’ checklist, step by step.';
    // A subscriber who is a member (a comp), beside the three who are not.
    const member = await buildMember(t, { email: 'member@example.org' });
    const comp = await call(owner, 'POST', `/api/desk/members/${member.userId}/comps`, {
      until: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      reason: 'a member on the list',
    });
    expect(comp.statusCode, comp.body).toBe(200);
    await t.database.pool.query(
      `INSERT INTO newsletter_subscribers (id, email, "userId", state, "confirmedAt", "updatedAt")
       VALUES ($1, 'member@example.org', $2, 'confirmed', now(), now())`,
      [randomUUID(), member.userId],
    );

    const created = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'article',
      slug: 'tenant-rights',
      title: 'Know Your Tenant Rights',
      category: 'Wealth',
      summary: 'What a landlord may and may not do.',
      readingMinutes: 3,
      visibility: 'members',
      // The opening's footnote is mailed below the Join line: notes end a mail.
      body: `Everyone reads this opening.[^1]\n\n[^1]: A note for all.\n\n<!-- members-only -->\n\n${SECRET}\n`,
    });
    const post = created.json().post;
    const published = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(published.statusCode, published.body).toBe(200);
    const url = `/api/desk/posts/${post.id}/newsletter`;
    const status = (await call(owner, 'GET', url)).json().status;
    expect(status.recipients).toBe(4);
    const send = await call(owner, 'POST', `${url}/send`, { recipients: 4 });
    expect(send.statusCode, send.body).toBe(202);

    await waitFor(
      () =>
        [...SUBSCRIBERS, 'member@example.org'].every((email) =>
          mailbox.mailsTo(email).some((m) => m.subject === 'Know Your Tenant Rights'),
        ),
      'the article to everyone',
    );
    const memberMail = mailbox
      .mailsTo('member@example.org')
      .find((m) => m.subject === 'Know Your Tenant Rights');
    expect(memberMail?.text).toContain('Everyone reads this opening.');
    expect(memberMail?.text).toContain(SECRET);
    expect(memberMail?.text).not.toContain('Join to read the rest');
    for (const email of SUBSCRIBERS) {
      const mail = mailbox.mailsTo(email).find((m) => m.subject === 'Know Your Tenant Rights');
      expect(mail?.text).toContain('Everyone reads this opening.');
      expect(mail?.text).not.toContain(SECRET);
      expect(mail?.text).toContain(
        'Available to members. Join to read the rest (http://localhost:3000/wealth/tenant-rights).\n\n---\n[1] A note for all.',
      );
      expect(mail?.text).toContain('/wealth/tenant-rights');
    }
  });

  it('sends a test copy as a member or as a subscriber who is not one, as the staff member chooses', async () => {
    const SECRET = 'The second half, for members.';
    const created = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'article',
      slug: 'split-for-the-test',
      title: 'Split For The Test',
      category: 'Health',
      summary: 'An opening for all, the rest for members.',
      readingMinutes: 2,
      visibility: 'members',
      body: `The opening everyone reads.\n\n<!-- members-only -->\n\n${SECRET}\n`,
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = `/api/desk/posts/${created.json().post.id}/newsletter/test`;
    const testCopies = () =>
      mailbox.mailsTo(OWNER).filter((m) => m.subject === '[Test] Split For The Test');

    const asMember = await call(owner, 'POST', url, {});
    expect(asMember.statusCode, asMember.body).toBe(200);
    expect(asMember.json().message).toContain('as a member');
    await waitFor(() => testCopies().length === 1, 'the member’s test copy');
    expect(testCopies()[0]?.text).toContain(SECRET);

    const asSubscriber = await call(owner, 'POST', `${url}?as=subscriber`, {});
    expect(asSubscriber.statusCode, asSubscriber.body).toBe(200);
    expect(asSubscriber.json().message).toContain('as a subscriber who is not a member');
    await waitFor(() => testCopies().length === 2, 'the subscriber’s test copy');
    const subscriberCopy = testCopies()[1];
    expect(subscriberCopy?.text).toContain('The opening everyone reads.');
    expect(subscriberCopy?.text).not.toContain(SECRET);
    expect(subscriberCopy?.text).toContain('Available to members. Join to read the rest');
    expect(subscriberCopy?.html).toContain('Join to read the rest');

    // Anyone else is not a reader it knows; nothing more is mailed.
    const bad = await call(owner, 'POST', `${url}?as=everyone`, {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/as/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(testCopies()).toHaveLength(2);
  });

  it('draws a non-member’s test copy of a members-only issue without a line as its title and a call to join', async () => {
    const created = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'newsletter',
      slug: 'members-letter',
      title: 'The Members Letter',
      summary: 'For members.',
      visibility: 'members',
      body: 'Only for members.\n',
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = `/api/desk/posts/${created.json().post.id}/newsletter/test`;
    const copies = () =>
      mailbox.mailsTo(OWNER).filter((m) => m.subject === '[Test] The Members Letter');
    const asSubscriber = await call(owner, 'POST', `${url}?as=subscriber`, {});
    expect(asSubscriber.statusCode, asSubscriber.body).toBe(200);
    await waitFor(() => copies().length === 1, 'the non-member’s test copy');
    const copy = copies()[0];
    expect(copy?.text).toContain(
      'Available to members. Join to read the rest (http://localhost:3000/newsletter/members-letter).',
    );
    expect(`${copy?.text}${copy?.html}`).not.toContain('Only for members.');
  });

  it('counts who an unfinished article draft would reach, before it can be mailed', async () => {
    const draft = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'article',
      title: 'Half Written',
    });
    const id = draft.json().post.id;
    const status = await call(owner, 'GET', `/api/desk/posts/${id}/newsletter`);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json().status).toMatchObject({ recipients: 4, sending: false });
    const send = await call(owner, 'POST', `/api/desk/posts/${id}/newsletter/send`, {
      recipients: 4,
    });
    expect(send.json()).toMatchObject({ error: { code: 'publish_first' } });
  });

  it('refuses to mail anything but a newsletter issue or an article', async () => {
    const campaign = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'campaign',
      title: 'Not a Letter',
    });
    const id = campaign.json().post.id;
    const response = await call(owner, 'POST', `/api/desk/posts/${id}/newsletter/test`, {});
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'not_a_newsletter' } });
  });
});
