import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertConfirmedSubscribers, TEST_ISSUE, TEST_SITE } from '#test/newsletter-fixtures';
import { SmtpCapture } from '#test/smtp-capture';
import { useDatabase } from '#test/with-site';
import { createMailer } from '../mail/mailer.js';
import { csvCell, exportConfirmedSubscribers } from './export-csv.js';
import { countRecipients } from './delivery-queue.js';
import type { NewsletterIssue } from '../../../contract/newsletters.js';
import type { ResolvedAudience } from './audience.js';
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

  const send = async (
    issue: NewsletterIssue = TEST_ISSUE,
    audience?: ResolvedAudience,
    more: Partial<Pick<Parameters<typeof sendIssue>[0], 'reading' | 'signal'>> = {},
  ) => {
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
        ...(audience && { audience }),
        ...more,
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

  it('sends an issue to paying members only when that is its audience, and its dry run counts just them', async () => {
    const issue = { ...TEST_ISSUE, slug: 'members-only-test', membersOnly: true };
    const paid: ResolvedAudience = { audience: 'paid', tiers: [], tierIds: [] };
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

    expect(await countRecipients({ db: database }, issue.slug, paid)).toEqual({
      recipients: 1,
      alreadyQueued: 0,
    });
    await send(issue, paid);
    expect(smtp.mailsTo('paying-member@example.com')).toHaveLength(1);
    expect(smtp.mailsTo('refunded-reader@example.com')).toHaveLength(0);
    expect(smtp.mailsTo('plain-reader@example.com')).toHaveLength(0);
    expect(
      await database.prisma.newsletterDelivery.count({ where: { issueSlug: issue.slug } }),
    ).toBe(1);
    expect(await countRecipients({ db: database }, issue.slug, paid)).toEqual({
      recipients: 0,
      alreadyQueued: 1,
    });
    // Kept with the send: a send started again without saying takes it.
    expect(
      await database.pool.query(
        `SELECT audience::text FROM newsletter_sends WHERE "issueSlug" = $1`,
        [issue.slug],
      ),
    ).toMatchObject({ rows: [{ audience: 'paid' }] });
  });

  it('draws each mail as its reader may read the issue when it goes out: a founder whose membership ended since it was queued gets the opening alone', async () => {
    const opening = 'The opening, for every reader.';
    const rest = 'Quince zither marzipan.';
    const paragraph = (value: string) => ({
      type: 'paragraph' as const,
      children: [{ type: 'text' as const, value }],
    });
    const issue = {
      ...TEST_ISSUE,
      slug: 'founders-test',
      articles: [],
      body: { type: 'root' as const, children: [paragraph(opening), paragraph(rest)] },
    };
    const { rows } = await database.pool.query<{ id: number }>(
      `INSERT INTO tiers (slug, name, position, "updatedAt") VALUES ('founder', 'Founder', 1, now())
       RETURNING id`,
    );
    const founderTier = rows[0]?.id ?? 0;
    const founder = async (email: string) => {
      const userId = crypto.randomUUID();
      await database.pool.query(
        `INSERT INTO users (id, email, "emailVerifiedAt", "updatedAt") VALUES ($1, $2, now(), now())`,
        [userId, email],
      );
      await database.pool.query(
        `INSERT INTO memberships ("userId", plan, status, "expiresAt", "tierId", "updatedAt")
         VALUES ($1, 'one-time', 'active', now() + interval '30 days', $2, now())`,
        [userId, founderTier],
      );
      await database.pool.query(
        `INSERT INTO newsletter_subscribers (id, email, "userId", state, "confirmedAt", "updatedAt")
         VALUES (gen_random_uuid(), $1, $2, 'confirmed', now(), now())`,
        [email, userId],
      );
      return userId;
    };
    await founder('staying-founder@example.com');
    const leaving = await founder('leaving-founder@example.com');
    const audience: ResolvedAudience = {
      audience: 'tiers',
      tiers: ['founder'],
      tierIds: [founderTier],
    };
    const reading = {
      rule: { visibility: 'tiers' as const, tiers: ['founder'] },
      opening: { type: 'root' as const, children: [paragraph(opening)] },
      tiers: [{ slug: 'founder', name: 'Founder' }],
    };

    // Queued for both founders, then stopped before a mail went out.
    const stopped = new AbortController();
    stopped.abort();
    const queued = await send(issue, audience, { reading, signal: stopped.signal });
    expect(queued.counts).toMatchObject({ queued: 2, sent: 0 });
    await database.pool.query(
      `UPDATE memberships SET "expiresAt" = now() - interval '1 day' WHERE "userId" = $1`,
      [leaving],
    );
    const final = await send(issue, audience, { reading });
    expect(final.counts).toMatchObject({ queued: 0, sent: 2 });

    const [staying] = smtp.mailsTo('staying-founder@example.com');
    expect(staying?.text).toContain(rest);
    const [left] = smtp.mailsTo('leaving-founder@example.com');
    expect(left?.text).toContain(opening);
    expect(left?.text).toContain(
      'Available on Founder. Upgrade to read the rest (https://cohort.example/newsletter/founders-test).',
    );
    for (const word of rest.split(/\W+/).filter(Boolean)) {
      expect(`${left?.html}${left?.text}`).not.toContain(word);
    }
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
