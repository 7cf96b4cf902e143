import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '#test/run-command';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { main } from './newsletter.js';

/**
 * `npm run newsletter:send` without SMTP (MAIL_TRANSPORT=log, the default without SMTP_URL
 * outside production), through the `main` scripts/cli.mjs runs, against the site's issues: each
 * mail is printed, nothing claims to have been mailed, and the shipped sample is not sent by
 * mistake.
 */
describe('the newsletter command without SMTP', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(
      `INSERT INTO newsletter_subscribers (id, email, state, "confirmedAt", "updatedAt")
       VALUES (gen_random_uuid(), 'reader@example.org', 'confirmed', now(), now())`,
    );
    await client.end();
  });
  afterAll(async () => {
    await database?.drop();
  });

  const send = (...args: string[]) =>
    runCommand(main, ['send', ...args], { DATABASE_URL: database.url, LOG_LEVEL: 'warn' });

  it('prints a test copy instead of saying it sent one', async () => {
    const result = await send('first-issue', '--test', 'editor@example.org');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '--- mail to editor@example.org: [Test] Welcome to the Cohort newsletter',
    );
    expect(result.stdout).toContain('Thank you for subscribing.');
    expect(result.stdout).toContain('nothing was mailed');
    expect(result.stdout).not.toContain('Sent a test copy');
  });

  it('refuses to send the shipped sample issue unless told it is meant', async () => {
    const refused = await send('first-issue');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is a sample issue shipped with Cohort');
    expect(refused.stderr).toContain(
      'Nothing was sent. To send the sample anyway, add --send-sample.',
    );
  });

  it('counts the audience it is told, as the desk’s send does, and refuses one it does not know', async () => {
    const dryRun = (...flags: string[]) => send('first-issue', '--dry-run', ...flags);
    expect((await dryRun('--audience', 'all')).stdout).toContain(
      'would go to 1 confirmed subscribers (everyone subscribed)',
    );
    // The reader has no account: free, not paying.
    expect((await dryRun('--audience', 'free')).stdout).toContain('would go to 1 confirmed');
    expect((await dryRun('--audience', 'paid')).stdout).toContain(
      'would go to 0 confirmed subscribers (paying members)',
    );
    const wrong = await dryRun('--audience', 'everyone');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--audience must be one of all, free, paid, tiers.');
    const noTiers = await dryRun('--audience', 'tiers');
    expect(noTiers.code).toBe(2);
    expect(noTiers.stderr).toContain('needs --tiers');
    const unknown = await dryRun('--audience', 'tiers', '--tiers', 'nobody');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no "nobody" tier');
  });

  it('prints every subscriber’s mail when sending, and says nothing was mailed', async (context) => {
    if (database.embedded) context.skip('the embedded test database serves one backend');
    const result = await send('first-issue', '--send-sample');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '--- mail to reader@example.org: Welcome to the Cohort newsletter',
    );
    expect(result.stdout).toMatch(/Done: "Welcome to the Cohort newsletter" printed 1 · failed 0/);
    expect(result.stdout).toContain('nothing was mailed');
  });
});
