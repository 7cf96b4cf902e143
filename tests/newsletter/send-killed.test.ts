import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertConfirmedSubscribers, TEST_ISSUE } from '#test/newsletter-fixtures';
import {
  canOpenPostgresDatabase,
  openPostgresDatabase,
  type PostgresDatabase,
} from '#test/postgres-cluster';
import { SmtpCapture } from '#test/smtp-capture';
import { createDatabase, type Database } from '../../server/src/db/database.js';
import { countDeliveries } from '../../server/src/newsletter/delivery-queue.js';

/**
 * A newsletter sender killed with SIGKILL (no shutdown, no finally) half-way through 2,000 mails,
 * then started again: every subscriber gets the issue, and nobody gets it twice.
 *
 * SMTP has no way to make "the server accepted it" and "we recorded it" one step (RFC 1047): a
 * mail accepted in the instant before the kill, whose 250 reply the sender never read, would be
 * sent again. The kill is made while the SMTP server holds its replies (as a slow server does), so
 * what this measures is the queue and the records: nothing sent is sent again, nothing left is
 * lost, and the crashed sender's in-flight deliveries resume at once.
 */

const SUBSCRIBERS = 2000;
const KILL_AFTER = 800;

const title = canOpenPostgresDatabase()
  ? 'a newsletter send killed half-way and started again'
  : 'a newsletter send killed half-way (SKIPPED: needs PostgreSQL: set TEST_DATABASE_URL)';

function startSender(databaseUrl: string, smtpUrl: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'tests/support/newsletter-sender.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, SMTP_URL: smtpUrl, CONNECTIONS: '5' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

describe.skipIf(!canOpenPostgresDatabase())(title, () => {
  let postgres: PostgresDatabase;
  let database: Database;
  let smtp: SmtpCapture;

  beforeAll(async () => {
    postgres = await openPostgresDatabase();
    database = createDatabase(postgres.url);
    smtp = await new SmtpCapture({ parse: false }).start();
    await insertConfirmedSubscribers(database.pool, SUBSCRIBERS);
  });
  afterAll(async () => {
    await database?.close();
    await smtp?.stop();
    await postgres?.drop();
  });

  it('delivers every one of 2,000 mails exactly once', async () => {
    const first = startSender(postgres.url, smtp.url);
    let stderr = '';
    first.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const firstExit = exited(first);
    await new Promise<void>((resolve, reject) => {
      const stop = smtp.onRecipient(() => {
        if (smtp.recipients.length < KILL_AFTER) return;
        stop();
        smtp.hold();
        resolve();
      });
      void firstExit.then(() => reject(new Error(`the sender ended before the kill: ${stderr}`)));
    });
    // Let the sender record what the server accepted, then kill it mid-send.
    await new Promise((resolve) => setTimeout(resolve, 300));
    first.kill('SIGKILL');
    expect((await firstExit).signal).toBe('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 100));
    smtp.release();

    const before = await countDeliveries(database.pool, TEST_ISSUE.slug);
    expect(before.sent).toBe(smtp.recipients.length);
    expect(before.queued).toBeGreaterThan(0);

    const startedAgain = Date.now();
    const second = startSender(postgres.url, smtp.url);
    let output = '';
    second.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    second.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const secondExit = await exited(second);
    expect(secondExit.code, output).toBe(0);
    // The crashed sender's in-flight deliveries did not wait out their 30 s expiry.
    expect(Date.now() - startedAgain).toBeLessThan(25_000);

    expect(smtp.recipients).toHaveLength(SUBSCRIBERS);
    expect(new Set(smtp.recipients).size).toBe(SUBSCRIBERS);
    const after = await countDeliveries(database.pool, TEST_ISSUE.slug);
    expect(after).toMatchObject({ sent: SUBSCRIBERS, queued: 0, failed: 0 });
    const last = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { resumed?: number };
    expect(last.resumed).toBeGreaterThan(0);
  }, 60_000);
});
