import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importIntoSite } from '#test/card-readings';
import { buildPost, buildStaff, type Member } from '#test/factories';
import { insertConfirmedSubscribers } from '#test/newsletter-fixtures';
import { runCommand } from '#test/run-command';
import { withSite, type Site } from '#test/with-site';
import { proveAddress } from '../accounts/proven-address.js';
import { main as newsletterMain } from '../cli/newsletter.js';
import { ghostExportChunks } from './ghost-export.js';
import { runImport } from './run-import.js';

// One consent, everywhere. A site imports the Ghost v4 sample, then members from Ghost's members
// CSV, Substack's two lists and a Ghost export with comps; nobody has signed in, except one
// subscriber who has since. The newsletter list (what a send reads), the desk's list, its
// filters and its member page, the members CSV, the newsletter CSV, `newsletter:status`, the Ghost
// JSON export and Ghost's members CSV all say the same of every member. Then the Ghost JSON export
// imported into a fresh site, and the Ghost members CSV into another, keep every subscriber
// subscribed and every other member not.

const fixtures = fileURLToPath(new URL('../../../tests/fixtures/imports/', import.meta.url));
const OWNER = 'owner@example.com';

type Csv = (Record<string, string | undefined> & { email: string })[];
const readCsv = (text: string): Csv => parse(text, { columns: true, skip_empty_lines: true });

interface DeskRow {
  id: string;
  email: string | null;
  isMember: boolean;
  newsletter: string | null;
}

/** Every row of the desk's members list with this query, page after page. */
async function deskList(site: Site, who: Member, query: string): Promise<DeskRow[]> {
  const rows: DeskRow[] = [];
  let after: string | null = null;
  do {
    const cursor: string = after ? `&after=${encodeURIComponent(after)}` : '';
    const answer = await site.call(who, 'GET', `/api/desk/members?${query}${cursor}`);
    expect(answer.statusCode, answer.body).toBe(200);
    const page = answer.json() as { members: DeskRow[]; next: string | null };
    rows.push(...page.members);
    after = page.next;
  } while (after);
  return rows;
}

const sorted = (values: string[]) => [...values].sort((a, b) => a.localeCompare(b));

const emailsOf = (rows: { email: string | null }[]) =>
  rows.map((row) => row.email ?? '').sort((a, b) => a.localeCompare(b));

/** The addresses on the newsletter (confirmed), with and without an account. */
async function newsletterList(site: Site) {
  const { rows } = await site.database.pool.query<{ email: string; hasAccount: boolean }>(
    `SELECT s.email, EXISTS (SELECT 1 FROM users u WHERE u.email = s.email) AS "hasAccount"
     FROM newsletter_subscribers s WHERE s.state = 'confirmed' ORDER BY s.email`,
  );
  return {
    members: sorted(rows.filter((row) => row.hasAccount).map((row) => row.email)),
    listOnly: sorted(rows.filter((row) => !row.hasAccount).map((row) => row.email)),
  };
}

/** The accounts with an address. */
async function accountEmails(site: Site): Promise<string[]> {
  const { rows } = await site.database.pool.query<{ email: string }>(
    'SELECT email FROM users WHERE email IS NOT NULL ORDER BY email',
  );
  return sorted(rows.map((row) => row.email));
}

describe('an imported subscriber’s consent, read from one place', () => {
  let a: Site;
  let owner: Member;
  let folder: string;
  let subscribed: string[];
  let notSubscribed: string[];
  let listOnly: string[];

  const importMembers = (site: Site, file: string) =>
    runImport(
      { source: 'members', path: file, section: 'Wealth' },
      {
        pool: site.database.pool,
        imageStore: site.app.imageStore,
        config: site.config,
        stripe: null,
        mail: site.app.mailer,
        schedule: site.app.postSchedule,
        allowPrivateAddresses: true,
      },
    );

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'cohort-consent-test-'));
    a = await withSite({ env: { STAFF_EMAILS: OWNER } });
    [owner] = await buildStaff(a, 'owner');
    await importIntoSite(a, join(fixtures, 'ghost/v4_export.json'));
    await importIntoSite(a, join(fixtures, 'ghost/ghost-6-lexical.json'));
    for (const file of [
      'members/ghost-members.csv',
      'members/fixtures_subscriber_emails.csv',
      'members/fixtures_signup_emails.csv',
    ]) {
      await importMembers(a, join(fixtures, file));
    }
    // One subscriber has signed in since (a link proved the address); one left the newsletter;
    // two addresses are on the newsletter without an account.
    const reader = await a.database.pool.query<{ id: string }>(
      `SELECT id FROM users WHERE email = 'reader@example.com'`,
    );
    const readerId = reader.rows[0]?.id ?? '';
    await a.database.prisma.$transaction((tx) => proveAddress(tx, readerId, 'reader@example.com'));
    await a.database.pool.query(
      `UPDATE newsletter_subscribers SET state = 'unsubscribed', "unsubscribedAt" = now()
       WHERE email = 'payer@example.com'`,
    );
    await insertConfirmedSubscribers(a.database.pool, 2, 'list-only.example');

    const list = await newsletterList(a);
    subscribed = list.members;
    listOnly = list.listOnly;
    notSubscribed = (await accountEmails(a)).filter((email) => !subscribed.includes(email));
  }, 120_000);

  afterAll(async () => {
    await a?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('keeps the files’ consent on the newsletter list, whoever signed in', async () => {
    // Ghost's CSV: reader agreed, friend did not (payer agreed, then left); the Ghost export: paid
    // and forever agreed, comp did not; every Substack reader whose mail is not disabled agreed.
    expect(subscribed).toEqual(
      expect.arrayContaining(['reader@example.com', 'paid@example.com', 'forever@example.com']),
    );
    expect(notSubscribed).toEqual(
      expect.arrayContaining([
        OWNER,
        'friend@example.com',
        'comp@example.com',
        'payer@example.com',
      ]),
    );
    expect(subscribed.length).toBeGreaterThanOrEqual(19);
    expect(listOnly).toEqual(['reader-0@list-only.example', 'reader-1@list-only.example']);
    // Only the one who signed in owns the sign-up as an account; the others are theirs by address.
    const { rows } = await a.database.pool.query<{ linked: number }>(
      `SELECT count(*)::int AS linked FROM newsletter_subscribers WHERE "userId" IS NOT NULL`,
    );
    expect(rows[0]?.linked).toBe(1);
  });

  it('shows it in the desk’s list, its filters and a member’s page', async () => {
    const everyone = await deskList(a, owner, 'filter=all');
    expect(emailsOf(everyone)).toEqual(sorted([...subscribed, ...notSubscribed]));
    for (const row of everyone) {
      const agreed = subscribed.includes(row.email ?? '');
      expect(row.newsletter === 'confirmed', row.email ?? '').toBe(agreed);
    }
    expect(everyone.find((row) => row.email === 'payer@example.com')?.newsletter).toBe(
      'unsubscribed',
    );
    expect(emailsOf(await deskList(a, owner, 'filter=newsletter_subscribed'))).toEqual(
      sorted(subscribed),
    );
    expect(emailsOf(await deskList(a, owner, 'filter=newsletter_not_subscribed'))).toEqual(
      sorted(notSubscribed),
    );
    expect(emailsOf(await deskList(a, owner, 'filter=newsletter_unsubscribed'))).toEqual([
      'payer@example.com',
    ]);
    // A member who never signed in: their page says what the list says.
    const paid = everyone.find((row) => row.email === 'paid@example.com');
    const page = await a.call(owner, 'GET', `/api/desk/members/${paid?.id}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().user.newsletter?.state).toBe('confirmed');
  });

  it('writes it in the members CSV and the newsletter CSV', async () => {
    const members = await a.call(owner, 'GET', '/api/desk/exports/members');
    expect(members.statusCode).toBe(200);
    const rows = readCsv(members.body);
    expect(emailsOf(rows.filter((row) => row.newsletter === 'confirmed'))).toEqual(
      sorted(subscribed),
    );
    const accountOf = new Map(rows.map((row) => [row.email, row.user_id]));

    const newsletter = await a.call(owner, 'GET', '/api/desk/exports/newsletter');
    expect(newsletter.statusCode).toBe(200);
    const list = readCsv(newsletter.body);
    expect(emailsOf(list)).toEqual(sorted([...subscribed, ...listOnly]));
    // Each subscriber with an account is named by it, signed in since or not.
    for (const row of list) {
      expect(row.user_id, row.email).toBe(accountOf.get(row.email ?? '') ?? '');
    }
  });

  it('counts it the same in `newsletter:status` and in a send’s audiences', async () => {
    const env = { DATABASE_URL: a.testDatabase.url, LOG_LEVEL: 'warn' };
    const status = await runCommand(newsletterMain, ['status'], env);
    expect(status.code, status.stderr).toBe(0);
    const confirmed = subscribed.length + listOnly.length;
    expect(status.stdout).toMatch(new RegExp(`confirmed\\s+${confirmed}\\n`));
    // Paid is who has access now, through the account at the address: the desk's members now.
    const paying = (await deskList(a, owner, 'filter=newsletter_subscribed')).filter(
      (row) => row.isMember,
    );
    expect(paying.map((row) => row.email)).toContain('forever@example.com');
    await buildPost(a, {
      kind: 'newsletter',
      slug: 'consent-check',
      title: 'Who gets this',
      summary: 'An issue to count by.',
      body: 'Hello.\n',
      by: owner,
    });
    const paid = await runCommand(
      newsletterMain,
      ['send', 'consent-check', '--dry-run', '--audience', 'paid'],
      env,
    );
    expect(paid.stdout, paid.stderr).toContain(
      `would go to ${paying.length} confirmed subscribers`,
    );
  });

  it('gives it back in the Ghost export, and a fresh site imports it so', async () => {
    let json = '';
    for await (const chunk of ghostExportChunks(a.database.pool, {
      siteUrl: a.config.siteUrl,
      siteName: 'Cohort',
      staff: a.config.staff,
    })) {
      json += chunk;
    }
    const members =
      (
        JSON.parse(json) as {
          db: { data: { members: { email: string; subscribed: boolean }[] } }[];
        }
      ).db[0]?.data.members ?? [];
    expect(emailsOf(members.filter((m) => m.subscribed))).toEqual(
      sorted([...subscribed, ...listOnly]),
    );
    expect(emailsOf(members.filter((m) => !m.subscribed))).toEqual(sorted(notSubscribed));
    const file = join(folder, 'ghost-export.json');
    await writeFile(file, json);

    const b = await withSite({ env: { STAFF_EMAILS: OWNER } });
    try {
      const [bOwner] = await buildStaff(b, 'owner');
      const report = await importIntoSite(b, file);
      expect(report.members.skipped).toEqual([]);
      const list = await newsletterList(b);
      // Everyone who was subscribed still is, an address without an account now with one.
      expect(list.members).toEqual(sorted([...subscribed, ...listOnly]));
      expect(list.listOnly).toEqual([]);
      expect(emailsOf(await deskList(b, bOwner, 'filter=newsletter_subscribed'))).toEqual(
        sorted([...subscribed, ...listOnly]),
      );
      // And nobody else: the one who left stays off, and so does everyone who never agreed.
      expect(emailsOf(await deskList(b, bOwner, 'filter=newsletter_not_subscribed'))).toEqual(
        sorted(notSubscribed),
      );
    } finally {
      await b.close();
    }
  }, 120_000);

  it('writes Ghost’s members CSV, which a fresh site’s members import reads as it is', async () => {
    const answer = await a.call(owner, 'GET', '/api/desk/exports/members?format=ghost');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-disposition']).toMatch(/filename="members-ghost-/);
    expect(answer.body.split('\n')[0]?.trim()).toBe(
      'email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels',
    );
    const rows = readCsv(answer.body);
    expect(emailsOf(rows.filter((row) => row.subscribed_to_emails === 'true'))).toEqual(
      sorted([...subscribed, ...listOnly]),
    );
    expect(emailsOf(rows.filter((row) => row.subscribed_to_emails === 'false'))).toEqual(
      sorted(notSubscribed),
    );
    const reader = rows.find((row) => row.email === 'reader@example.com');
    expect(reader).toMatchObject({ name: 'Rae Reader', note: 'Met at the fair, 2019' });
    expect(reader?.labels?.split(',').sort()).toEqual(['Fair 2019', 'Newsletter']);
    expect(rows.find((row) => row.email === 'comp@example.com')?.complimentary_plan).toBe('true');

    const file = join(folder, 'members-ghost.csv');
    await writeFile(file, answer.body);
    const c = await withSite({ env: { STAFF_EMAILS: OWNER } });
    try {
      const [cOwner] = await buildStaff(c, 'owner');
      const report = await importMembers(c, file);
      expect(report.members.skipped).toEqual([]);
      expect((await newsletterList(c)).members).toEqual(sorted([...subscribed, ...listOnly]));
      expect(emailsOf(await deskList(c, cOwner, 'filter=newsletter_subscribed'))).toEqual(
        sorted([...subscribed, ...listOnly]),
      );
      const { rows: comps } = await c.database.pool.query<{ email: string }>(
        `SELECT u.email FROM users u JOIN entitlements e ON e."userId" = u.id
         WHERE e.source = 'comp' ORDER BY u.email`,
      );
      expect(comps.map((row) => row.email)).toContain('comp@example.com');
    } finally {
      await c.close();
    }
    expect(await readFile(file, 'utf8')).toBe(answer.body);
  }, 120_000);

  it('refuses a Ghost members file asked for with a search, and audits nothing', async () => {
    const audits = async () =>
      (
        await a.database.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM audit_log WHERE action = 'members_export'`,
        )
      ).rows[0]?.n;
    const before = await audits();
    const answer = await a.call(
      owner,
      'GET',
      '/api/desk/exports/members?format=ghost&filter=newsletter_subscribed',
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.code).toBe('invalid_export');
    expect(answer.json().error.message).toContain('holds every member');
    expect(await audits()).toBe(before);
    expect((await a.call(owner, 'GET', '/api/desk/exports/members?format=zip')).statusCode).toBe(
      400,
    );
  });
});
