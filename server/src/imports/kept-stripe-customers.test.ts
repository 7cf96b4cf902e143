import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '#test/fake-stripe';
import { runCommand } from '#test/run-command';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { main as importMain } from '../cli/import.js';
import { main as stripeMain } from '../cli/stripe.js';
import { planLookupKey } from '../stripe/cohort-sales.js';
import type { ImportReport } from './source.js';

// A publisher imports their members before setting up payments: each member's Stripe customer is
// kept beside the account, and the report says so instead of calling it a failure. Once the keys
// are set, `npm run stripe:reconcile` or the next import links each customer and places what it
// pays for, read from the (fake) Stripe account the old platform used.

const GHOST_HEADER =
  'email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels';

describe('Stripe customers imported while payments are off', () => {
  let database: TestDatabase;
  let stripe: FakeStripe;
  let scratch: string;
  /** The site's own yearly plan, as made in the Dashboard with its lookup key. */
  let yearly: string;

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    stripe = await startFakeStripe();
    scratch = await mkdtemp(join(tmpdir(), 'cohort-kept-customers-'));
    yearly = stripe.createPrice({
      unit_amount: 1200,
      interval: 'year',
      lookup_key: planLookupKey('yearly', 1200, 'usd'),
    }).id;
  });
  afterAll(async () => {
    await stripe?.stop();
    await database?.drop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  const offline = () => ({ DATABASE_URL: database.url, UPLOADS_DIR: join(scratch, 'uploads') });
  const online = () => ({ ...offline(), ...stripe.env() });

  async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  /** A paying customer at Stripe, made on the old platform: its id. */
  function payingCustomer(email: string): string {
    const customer = stripe.createCustomer(email).id;
    stripe.subscribeCustomer(customer, yearly);
    // Made before the switch-over: read by the import, never delivered as events.
    stripe.clearPending();
    return customer;
  }

  /** A Ghost members CSV of these addresses and customers. */
  async function membersFile(name: string, rows: [string, string][]): Promise<string> {
    const path = join(scratch, name);
    const lines = rows.map(([email, customer]) => `${email},,,true,false,${customer},,,`);
    await writeFile(path, [GHOST_HEADER, ...lines].join('\n'));
    return path;
  }

  async function importMembers(path: string, env: Record<string, string>, ...flags: string[]) {
    const run = await runCommand(importMain, ['members', path, '--json', ...flags], env);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as ImportReport;
  }

  const kept = (emails: string[]) =>
    query<{ email: string; customerId: string; source: string }>(
      `SELECT u.email, k."customerId", k.source FROM kept_stripe_customers k
       JOIN users u ON u.id = k."userId" WHERE u.email = ANY($1) ORDER BY u.email`,
      [emails],
    );
  const linked = (emails: string[]) =>
    query<{ email: string; id: string }>(
      `SELECT u.email, c.id FROM stripe_customers c JOIN users u ON u.id = c."userId"
       WHERE u.email = ANY($1) ORDER BY u.email`,
      [emails],
    );
  const memberships = (emails: string[]) =>
    query<{ email: string; plan: string; status: string }>(
      `SELECT u.email, m.plan::text, m.status FROM memberships m JOIN users u ON u.id = m."userId"
       WHERE u.email = ANY($1) ORDER BY u.email`,
      [emails],
    );

  it('keeps them, says "kept, to link when payments are on", and links them with npm run stripe:reconcile', async () => {
    const ann = payingCustomer('ann@example.com');
    const bob = payingCustomer('bob@example.com');
    const emails = ['ann@example.com', 'bob@example.com', 'cy@example.com'];
    const file = await membersFile('reconcile.csv', [
      ['ann@example.com', ann],
      ['bob@example.com', bob],
      ['cy@example.com', 'cus_NotInThisAccount'],
    ]);

    // A dry run says what it would do and keeps nothing.
    const dry = await importMembers(file, offline(), '--dry-run');
    expect(dry.notes).toContain(
      'Stripe customers of 3 members: kept, to link when payments are on (set the Stripe keys, then run npm run stripe:reconcile or this import again)',
    );
    expect(await kept(emails)).toEqual([]);

    const report = await importMembers(file, offline());
    expect(report.members).toMatchObject({ created: 3, skipped: [] });
    expect(report.notes).toContainEqual(
      expect.stringMatching(/^Stripe customers of 3 members: kept, to link when payments are on/),
    );
    expect(await kept(emails)).toEqual([
      { email: 'ann@example.com', customerId: ann, source: 'members' },
      { email: 'bob@example.com', customerId: bob, source: 'members' },
      { email: 'cy@example.com', customerId: 'cus_NotInThisAccount', source: 'members' },
    ]);
    expect(await linked(emails)).toEqual([]);
    expect(await memberships(emails)).toEqual([]);
    // The command's own summary says it too, and nothing of it under "skipped".
    const summary = await runCommand(importMain, ['members', file], offline());
    expect(summary.stdout).toContain('kept, to link when payments are on');
    expect(summary.stdout).not.toContain('skipped:');
    expect(summary.stdout).toContain('members: 0 created, 0 updated, 3 unchanged, 0 skipped');

    // The keys are set: reconcile links the two Stripe knows, and forgets the one it does not.
    const reconciled = await runCommand(stripeMain, ['reconcile', '--since', '1d'], online());
    expect(reconciled.stdout).toContain(
      'Stripe customers kept from imports while payments were off: 2 linked',
    );
    expect(reconciled.stdout).toContain(
      'cy@example.com: Stripe has no customer cus_NotInThisAccount in this account: no paid membership',
    );
    expect(await linked(emails)).toEqual([
      { email: 'ann@example.com', id: ann },
      { email: 'bob@example.com', id: bob },
    ]);
    expect(await memberships(emails)).toEqual([
      { email: 'ann@example.com', plan: 'subscription', status: 'active' },
      { email: 'bob@example.com', plan: 'subscription', status: 'active' },
    ]);
    expect(await kept(emails)).toEqual([]);

    // Run again, nothing is left to link.
    const again = await runCommand(stripeMain, ['reconcile', '--since', '1d'], online());
    expect(again.stdout).not.toContain('kept from imports');
  });

  it('links them at the next import once the keys are set, whatever that import brings', async () => {
    const dee = payingCustomer('dee@example.com');
    const emails = ['dee@example.com', 'eve@example.com'];
    await importMembers(await membersFile('first.csv', [['dee@example.com', dee]]), offline());
    expect(await kept(emails)).toEqual([
      { email: 'dee@example.com', customerId: dee, source: 'members' },
    ]);

    // A dry run with payments on reads Stripe but links nothing.
    const later = await membersFile('later.csv', [['eve@example.com', '']]);
    await importMembers(later, online(), '--dry-run');
    expect(await linked(emails)).toEqual([]);

    const report = await importMembers(later, online());
    expect(report.notes).toContain('Stripe customers kept while payments were off, now linked: 1');
    expect(report.members).toMatchObject({ created: 1, skipped: [] });
    expect(await linked(emails)).toEqual([{ email: 'dee@example.com', id: dee }]);
    expect(await memberships(emails)).toEqual([
      { email: 'dee@example.com', plan: 'subscription', status: 'active' },
    ]);
    expect(await kept(emails)).toEqual([]);
  });
});
