import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import { useImportDeps } from '#test/import-posts-target';
import { haveMigrationSamples, sample } from '#test/migration-samples';
import { runImport } from './run-import.js';

// Substack gives its readers in two lists: the subscribers (who pays, who has a comp, no dates)
// and the sign-ups (everyone, with the day they joined). A publisher may import them in either
// order; each reader's join date here is the earliest either list knows, so both orders end the
// same, with the sign-ups' real dates. The lists are Substack's own (TryGhost/migrate's fixtures).

const SUBSCRIBERS = 'substack/mg-substack-members-csv/fixtures_subscriber_emails.csv';
const SIGNUPS = 'substack/mg-substack-members-csv/fixtures_signup_emails.csv';

describe.skipIf(!haveMigrationSamples)('Substack’s two members lists, in either order', () => {
  const { pool, deps } = useImportDeps();

  beforeEach(async () => {
    await pool.query('TRUNCATE users, newsletter_subscribers CASCADE');
  });

  /** Imports the lists in this order; answers each account's join date by address. */
  async function joinDatesAfter(...files: string[]): Promise<Map<string, string>> {
    for (const file of files) {
      const report = await runImport({ source: 'members', path: sample(file) }, deps);
      // No reader is left out (an expired comp is said, its reader imported all the same).
      expect(report.members.skipped.map((each) => each.reason)).not.toContainEqual(
        expect.stringMatching(/not a valid|more than once/),
      );
    }
    const { rows } = await pool.query<{ email: string; createdAt: Date }>(
      'SELECT email, "createdAt" FROM users ORDER BY email',
    );
    return new Map(rows.map((row) => [row.email, row.createdAt.toISOString()]));
  }

  /** The sign-up list's own dates, by address as the site keeps it (trimmed, lower-cased). */
  function signupDates(): Map<string, string> {
    const rows = parse(readFileSync(sample(SIGNUPS)), { columns: true, bom: true }) as {
      email: string;
      created_at: string;
    }[];
    return new Map(
      rows.map((row) => [row.email.trim().toLowerCase(), new Date(row.created_at).toISOString()]),
    );
  }

  it('gives every reader the sign-up list’s join date, whichever list comes first', async () => {
    const startedAt = Date.now();
    const subscribersFirst = await joinDatesAfter(SUBSCRIBERS, SIGNUPS);
    // The subscriber list alone has no dates: imported first, its accounts start today…
    await pool.query('TRUNCATE users, newsletter_subscribers CASCADE');
    const alone = await joinDatesAfter(SUBSCRIBERS);
    expect(alone.size).toBe(17);
    for (const date of alone.values()) {
      expect(new Date(date).getTime()).toBeGreaterThanOrEqual(startedAt - 1000);
    }
    // …and the sign-ups that follow put back the real ones.
    await pool.query('TRUNCATE users, newsletter_subscribers CASCADE');
    const signupsFirst = await joinDatesAfter(SIGNUPS, SUBSCRIBERS);

    const expected = signupDates();
    expect(expected.size).toBe(21);
    expect(subscribersFirst).toEqual(expected);
    expect(signupsFirst).toEqual(expected);
    // The dates are the 2018–2020 ones the export gives, not the day of the import.
    expect(subscribersFirst.get('tcowenaldkuf@gmu.edu')).toBe('2018-09-08T00:19:14.583Z');
    expect(subscribersFirst.get('bob.something@advisers.co.uk')).toBe('2020-01-01T19:58:29.925Z');
  });

  it('counts the second list’s earlier dates as updates, and a third run changes nothing', async () => {
    await runImport({ source: 'members', path: sample(SUBSCRIBERS) }, deps);
    const signups = await runImport({ source: 'members', path: sample(SIGNUPS) }, deps);
    // 17 of the 21 were made by the subscriber list and take their dates; 4 are new.
    expect(signups.members).toMatchObject({ created: 4, updated: 17, unchanged: 0 });
    const again = await runImport({ source: 'members', path: sample(SIGNUPS) }, deps);
    expect(again.members).toMatchObject({ created: 0, updated: 0, unchanged: 21 });
  });

  it('keeps a date already earlier than the file’s', async () => {
    await pool.query(
      `INSERT INTO users (id, email, "sessionVersion", "createdAt", "updatedAt")
       VALUES (gen_random_uuid(), 'jill@example.com', 1, '2015-02-03T04:05:06Z', now())`,
    );
    const dates = await joinDatesAfter(SIGNUPS);
    expect(dates.get('jill@example.com')).toBe('2015-02-03T04:05:06.000Z');
  });
});
