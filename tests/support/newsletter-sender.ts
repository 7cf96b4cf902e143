// A newsletter sender as its own process, for the tests that kill one (SIGKILL) in the middle of
// a send and the benchmark: the same sendIssue the `npm run newsletter:send` command runs, with an
// issue of the test's own (the command reads the build's) and shorter queue timings.
//   DATABASE_URL=… SMTP_URL=… node --import tsx tests/support/newsletter-sender.ts
import { createDatabase } from '../../server/src/db/database.js';
import { createMailer } from '../../server/src/mail/mailer.js';
import type { QueueTimings } from '../../server/src/newsletter/delivery-queue.js';
import { sendIssue } from '../../server/src/newsletter/send-issue.js';
import { createUnsubscribeTokens } from '../../server/src/newsletter/tokens.js';
import { TEST_ISSUE, TEST_SITE } from './newsletter-fixtures.js';

export const TEST_TIMINGS: QueueTimings = {
  retryLimit: 3,
  retryDelaySeconds: 1,
  expireSeconds: 30,
  maintenanceSeconds: 10,
};

const { DATABASE_URL, SMTP_URL, CONNECTIONS } = process.env;
if (!DATABASE_URL || !SMTP_URL) throw new Error('DATABASE_URL and SMTP_URL are required');
const connections = Number(CONNECTIONS ?? 5);
const database = createDatabase(DATABASE_URL, { maxConnections: connections * 2 + 2 });
const mailer = createMailer({
  smtpUrl: SMTP_URL,
  from: 'Cohort <news@cohort.example>',
  log: { info() {} },
  poolConnections: connections,
});
const final = await sendIssue({
  database,
  lockable: true,
  mailer,
  site: TEST_SITE,
  tokens: createUnsubscribeTokens('newsletter-sender-test-secret-0123456789abcdef'),
  issue: TEST_ISSUE,
  timings: TEST_TIMINGS,
  concurrency: connections * 2,
  progressIntervalMs: 200,
  onProgress: (progress) => console.log(JSON.stringify(progress)),
});
mailer.close();
await database.close();
process.exit(final.counts.queued === 0 ? 0 : 1);
