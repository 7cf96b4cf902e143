import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertConfirmedSubscribers, TEST_ISSUE, TEST_SITE } from '#test/newsletter-fixtures';
import { SmtpCapture } from '#test/smtp-capture';
import { useDatabase } from '#test/with-site';
import { createMailer } from '../mail/mailer.js';
import { csvCell, exportConfirmedSubscribers } from './export-csv.js';
import { countRecipients } from './delivery-queue.js';
import type { NewsletterIssue } from '../../../contract/newsletters.js';
import { sendIssue } from './send-issue.js';
import { createUnsubscribeTokens } from './tokens.js';

const SECRET = 'send-issue-test-secret-0123456789abcdef0123';

describe('sending an issue', () => {
  const { db: database, testDatabase } = useDatabase({ maxConnections: 5 });
  let smtp: SmtpCapture;

  beforeAll(async () => {
    smtp = await new SmtpCapture().start();
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  const send = async (issue: NewsletterIssue = TEST_ISSUE) => {
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'Cohort <news@cohort.example>',
      log: { info() {} },
      poolConnections: 2,
    });
    try {
      return await sendIssue({
        database,
        lockable: !testDatabase.embedded,
        mailer,
        site: TEST_SITE,
        tokens: createUnsubscribeTokens(SECRET),
        issue,
        timings: { retryLimit: 3, retryDelaySeconds: 1, expireSeconds: 30, maintenanceSeconds: 10 },
        concurrency: 4,
      });
    } finally {
      mailer.close();
    }
  };
  const delivery = (email: string) =>
    database.prisma.newsletterDelivery.findFirstOrThrow({
      where: { issueSlug: TEST_ISSUE.slug, subscriber: { email } },
      select: { state: true, attempts: true, lastError: true },
    });
  const subscriber = (email: string) =>
    database.prisma.newsletterSubscriber.findUniqueOrThrow({
      where: { email },
      select: { id: true, state: true, permanentFailures: true },
    });

  it('retries a temporary SMTP refusal, stops at a permanent one, and marks an address bouncing after three', async () => {
    await insertConfirmedSubscribers(database.pool, 3, 'example.com');
    await insertConfirmedSubscribers(database.pool, 1, 'busy.example');
    await insertConfirmedSubscribers(database.pool, 1, 'gone.example');
    await insertConfirmedSubscribers(database.pool, 1, 'twice-gone.example');
    await database.prisma.newsletterSubscriber.update({
      where: { email: 'reader-0@twice-gone.example' },
      data: { permanentFailures: 2 },
    });
    await database.prisma.newsletterSubscriber.create({
      data: { id: crypto.randomUUID(), email: 'left@example.com', state: 'unsubscribed' },
    });
    smtp.refuse('reader-0@busy.example', 451, 2);
    smtp.refuse('reader-0@gone.example', 550);
    smtp.refuse('reader-0@twice-gone.example', 550);

    const result = await send();

    expect(result.counts).toMatchObject({ sent: 4, failed: 2, queued: 0, bounced: 1 });
    expect(await delivery('reader-0@busy.example')).toMatchObject({ state: 'sent', attempts: 3 });
    expect(smtp.mailsTo('reader-0@busy.example')).toHaveLength(1);
    expect(await delivery('reader-0@gone.example')).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: expect.stringContaining('550'),
    });
    expect(await subscriber('reader-0@gone.example')).toMatchObject({
      state: 'confirmed',
      permanentFailures: 1,
    });
    expect(await subscriber('reader-0@twice-gone.example')).toMatchObject({
      state: 'bouncing',
      permanentFailures: 3,
    });
    expect(smtp.mailsTo('left@example.com')).toHaveLength(0);

    // Sending again reaches nobody twice and retries no permanent failure.
    const again = await send();
    expect(again.newlyQueued).toBe(0);
    expect(smtp.mails).toHaveLength(4);
  }, 30_000);

  it('mails HTML and text with a one-click unsubscribe for each subscriber, and no tracking', async () => {
    const [mail] = smtp.mailsTo('reader-1@example.com');
    const { id } = await subscriber('reader-1@example.com');
    const token = createUnsubscribeTokens(SECRET).sign(id);
    expect(mail?.subject).toBe(TEST_ISSUE.title);
    expect(mail?.headers.get('list-unsubscribe')).toBe(
      `<https://cohort.example/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}>, <mailto:news@cohort.example?subject=unsubscribe>`,
    );
    expect(mail?.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail?.html).toContain('Hello, &#60;reader&#62; &#38; friends.');
    expect(mail?.html).toContain('href="https://cohort.example/wealth"');
    expect(mail?.html).toContain(`https://cohort.example/newsletter/unsubscribe#token=${token}`);
    // The issue's own page in the archive, for a reader whose mail client draws it badly.
    expect(mail?.html).toContain(
      `<a href="https://cohort.example/newsletter/${TEST_ISSUE.slug}" style="color:#1d4ed8;text-decoration:underline;">Read it on the site</a>`,
    );
    expect(mail?.text).toContain(
      `Read it on the site: https://cohort.example/newsletter/${TEST_ISSUE.slug}`,
    );
    expect(mail?.html).not.toMatch(/<img|<script/i);
    expect(mail?.text).toContain('Hello, <reader> & friends.');
    expect(mail?.text).toContain(
      'Sleep debt reset: https://cohort.example/health/sleep-debt-reset',
    );
    expect(mail?.text).toContain(
      `Unsubscribe in one click: https://cohort.example/newsletter/unsubscribe#token=${token}`,
    );
  });

  it('sends a members-only issue to members only, and its dry run counts just them', async () => {
    const issue = { ...TEST_ISSUE, slug: 'members-only-test', membersOnly: true };
    const subscribe = async (email: string, status: string | null) => {
      const userId = crypto.randomUUID();
      await database.prisma.user.create({ data: { id: userId, email } });
      if (status) {
        await database.prisma.membership.create({
          data: { userId, plan: 'one_time', status, expiresAt: new Date(Date.now() + 86_400_000) },
        });
      }
      await database.prisma.newsletterSubscriber.create({
        data: {
          id: crypto.randomUUID(),
          email,
          userId,
          state: 'confirmed',
          confirmedAt: new Date(),
        },
      });
    };
    await subscribe('paying-member@example.com', 'active');
    await subscribe('refunded-reader@example.com', 'refunded');
    await subscribe('plain-reader@example.com', null);

    expect(await countRecipients({ db: database }, issue.slug, true)).toEqual({
      recipients: 1,
      alreadyQueued: 0,
    });
    await send(issue);
    expect(smtp.mailsTo('paying-member@example.com')).toHaveLength(1);
    expect(smtp.mailsTo('refunded-reader@example.com')).toHaveLength(0);
    expect(smtp.mailsTo('plain-reader@example.com')).toHaveLength(0);
    expect(
      await database.prisma.newsletterDelivery.count({ where: { issueSlug: issue.slug } }),
    ).toBe(1);
    expect(await countRecipients({ db: database }, issue.slug, true)).toEqual({
      recipients: 0,
      alreadyQueued: 1,
    });
  });

  it('exports confirmed subscribers as CSV a spreadsheet cannot run', async () => {
    await database.prisma.newsletterSubscriber.create({
      data: {
        id: crypto.randomUUID(),
        email: '=hyperlink("http://evil")@example.com',
        state: 'confirmed',
      },
    });
    let csv = '';
    const count = await exportConfirmedSubscribers({ db: database }, (chunk) => {
      csv += chunk;
    });
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('email,confirmed_at,user_id');
    expect(count).toBe(lines.length - 1);
    expect(csv).toContain(`"'=hyperlink(""http://evil"")@example.com"`);
    expect(csv).not.toContain('left@example.com');
    expect(csvCell('+1')).toBe(`"'+1"`);
    expect(csvCell('-2')).toBe(`"'-2"`);
    expect(csvCell('@x')).toBe(`"'@x"`);
    expect(csvCell('plain')).toBe('"plain"');
  });
});
