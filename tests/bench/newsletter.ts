// Newsletter throughput: one issue to 5,000 confirmed subscribers through the real queue (pg-boss on
// PostgreSQL, a delivery record per mail) and the pooled mailer, to a local SMTP sink.
// Target: 200 mails/s.   node --import tsx tests/bench/newsletter.ts
import { saveBenchResult } from '#test/bench-result';
import { insertConfirmedSubscribers, TEST_ISSUE, TEST_SITE } from '#test/newsletter-fixtures';
import { openPostgresDatabase } from '#test/postgres-cluster';
import { SmtpCapture } from '#test/smtp-capture';
import { createDatabase } from '../../server/src/db/database.js';
import { createMailer } from '../../server/src/mail/mailer.js';
import { DEFAULT_TIMINGS } from '../../server/src/newsletter/delivery-queue.js';
import { sendIssue } from '../../server/src/newsletter/send-issue.js';
import { createUnsubscribeTokens } from '../../server/src/newsletter/tokens.js';
import { createMailTracking } from '../../server/src/newsletter/tracking.js';

const SUBSCRIBERS = 5000;
const CONNECTIONS = 5; // NEWSLETTER_SMTP_CONNECTIONS's default
const TARGET = 200;

const postgres = await openPostgresDatabase();
const database = createDatabase(postgres.url, { maxConnections: 14 });
const smtp = await new SmtpCapture({ parse: false }).start();
try {
  await insertConfirmedSubscribers(database.pool, SUBSCRIBERS);
  const mailer = createMailer({
    smtpUrl: smtp.url,
    from: 'Cohort <news@cohort.example>',
    log: { info() {} },
    poolConnections: CONNECTIONS,
  });
  let firstAt = 0;
  let lastAt = 0;
  smtp.onRecipient(() => {
    lastAt = performance.now();
    firstAt ||= lastAt;
  });
  const started = performance.now();
  const final = await sendIssue({
    database,
    lockable: true,
    mailer,
    // As NEWSLETTER_TRACKING's default sends it: an open pixel and links through the site.
    site: {
      ...TEST_SITE,
      tracking: createMailTracking('bench-secret-0123456789abcdef0123456789', TEST_SITE.siteUrl),
    },
    tokens: createUnsubscribeTokens('bench-secret-0123456789abcdef0123456789'),
    issue: TEST_ISSUE,
    timings: DEFAULT_TIMINGS,
    concurrency: CONNECTIONS * 2,
  });
  const total = (performance.now() - started) / 1000;
  mailer.close();
  if (final.counts.sent !== SUBSCRIBERS || smtp.recipients.length !== SUBSCRIBERS) {
    throw new Error(`sent ${final.counts.sent}, the sink got ${smtp.recipients.length}`);
  }
  const sending = SUBSCRIBERS / ((lastAt - firstAt) / 1000);
  const overall = SUBSCRIBERS / total;
  const verdict = sending >= TARGET ? 'meets' : 'MISSES';
  console.log(
    `newsletter: ${sending.toFixed(0)} mails/s while sending, ${overall.toFixed(0)} mails/s including queueing ${SUBSCRIBERS} (${total.toFixed(1)} s); target ${TARGET}: ${verdict}`,
  );
  saveBenchResult({
    title: 'Newsletter throughput',
    summary: `${sending.toFixed(0)} mails/s to a local SMTP sink (target ${TARGET}: ${verdict})`,
    setup: `One issue to ${SUBSCRIBERS} confirmed subscribers: delivery rows and pg-boss jobs queued in PostgreSQL, sent over ${CONNECTIONS} pooled SMTP connections (${CONNECTIONS * 2} mails in flight) to a loopback smtp-server sink, each mail recorded as sent when the server accepts it; each with its own open pixel and links through the site (NEWSLETTER_TRACKING's default).`,
    database: postgres.description,
    tables: [
      {
        columns: ['mails', 'queue + send (s)', 'mails/s while sending', 'mails/s overall'],
        rows: [[SUBSCRIBERS, total.toFixed(1), sending.toFixed(0), overall.toFixed(0)]],
      },
    ],
  });
} finally {
  await database.close();
  await smtp.stop();
  await postgres.drop();
}
