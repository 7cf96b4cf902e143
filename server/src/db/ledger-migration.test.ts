import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '#test/test-database';
import { migrationsDir } from '../paths.js';
import { applyMigrations } from './migrate.js';

// The ledger migration carries what the single-row model knew into the ledger: a database with
// paying users from before it must keep every paid period, refund and Stripe id.

const quiet = { info: () => {}, warn: () => {} };
const LEDGER = '20261123000000_ledger';

describe('the ledger migration on a database with paying users', () => {
  let database: TestDatabase;
  let client: pg.Client;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'cohort-before-ledger-'));
    await cp(migrationsDir, dir, {
      recursive: true,
      // Only the migrations from before the ledger (names sort by time).
      filter: (source) => {
        const name = relative(migrationsDir, source).split(sep)[0] ?? '';
        return name === '' || name.endsWith('.toml') || name < LEDGER;
      },
    });
    await applyMigrations(database.url, dir, quiet);
    client = new pg.Client(database.url);
    await client.connect();
    await client.query(`
      INSERT INTO users (id, "stripeCustomerId", "updatedAt") VALUES
        ('00000000-0000-4000-8000-000000000001', NULL, now()),
        ('00000000-0000-4000-8000-000000000002', 'cus_old', now());
      INSERT INTO memberships ("userId", plan, status, "expiresAt", "stripeSubscriptionId",
                               "stripeSyncedAt", "updatedAt") VALUES
        ('00000000-0000-4000-8000-000000000001', 'one-time', 'active', now() + interval '200 days',
         NULL, NULL, now()),
        ('00000000-0000-4000-8000-000000000002', 'subscription', 'active',
         now() + interval '300 days', 'sub_old', now(), now());
      INSERT INTO payments (id, "userId", plan, "amountCents", currency, "refundedAt") VALUES
        ('pi_kept', '00000000-0000-4000-8000-000000000001', 'one-time', 1200, 'usd', NULL),
        ('pi_refunded', '00000000-0000-4000-8000-000000000001', 'one-time', 1200, 'usd', now()),
        ('in_old', '00000000-0000-4000-8000-000000000002', 'subscription', 1200, 'usd', NULL);
    `);
    await cp(join(migrationsDir, LEDGER), join(dir, LEDGER), { recursive: true });
    await applyMigrations(database.url, dir, quiet);
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('turns every payment into an entitlement, refunds included', async () => {
    const { rows } = await client.query(
      `SELECT id, source, "paymentIntentId", "subscriptionId", days, state
       FROM entitlements ORDER BY id`,
    );
    expect(rows).toEqual([
      {
        id: 'in_old',
        source: 'subscription-invoice',
        paymentIntentId: null,
        subscriptionId: 'sub_old',
        days: null,
        state: 'active',
      },
      {
        id: 'pi_kept',
        source: 'one-time',
        paymentIntentId: 'pi_kept',
        subscriptionId: null,
        days: 365,
        state: 'active',
      },
      {
        id: 'pi_refunded',
        source: 'one-time',
        paymentIntentId: 'pi_refunded',
        subscriptionId: null,
        days: 365,
        state: 'refunded',
      },
    ]);
  });

  it('keeps the Stripe customer and the subscription, and the membership rows', async () => {
    const customers = await client.query('SELECT id, "userId" FROM stripe_customers');
    expect(customers.rows).toEqual([
      { id: 'cus_old', userId: '00000000-0000-4000-8000-000000000002' },
    ]);
    const subscriptions = await client.query(
      'SELECT id, "userId", "customerId", status FROM subscriptions',
    );
    expect(subscriptions.rows).toEqual([
      {
        id: 'sub_old',
        userId: '00000000-0000-4000-8000-000000000002',
        customerId: 'cus_old',
        status: 'active',
      },
    ]);
    const memberships = await client.query('SELECT count(*)::int AS n FROM memberships');
    expect(memberships.rows[0]).toEqual({ n: 2 });
  });
});
