import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeStripe } from '#test/fake-stripe';
import { runCommand } from '#test/run-command';
import { newVisitor, type Visitor } from '#test/visitor';
import { withSite, type Site } from '#test/with-site';
import { main } from '../cli/stripe.js';
import { earlyAccessMetadata } from './cohort-sales.js';
import { formatReconcileReport, reconcileStripe } from './reconcile.js';

// A database restored from a backup taken before a week of payments, or a webhook endpoint that
// was down longer than Stripe retries: the ledger has lost what Stripe knows. Reconcile replays
// Stripe's events and re-reads every live subscription and recent payment through the same code
// as the webhook, and must restore exactly what the webhooks had made.

const MEMBERSHIP_PRICE = { priceCents: 1200, currency: 'usd', priceId: undefined };

describe('npm run stripe:reconcile', () => {
  let stripe: FakeStripe;
  let t: Site;
  const members: Visitor[] = [];

  beforeAll(async () => {
    t = await withSite({ payments: true });
    stripe = t.stripe;

    // A year paid once; a year paid then refunded; a subscription renewed once; a subscription
    // cancelled; a subscriber whose charge was disputed and lost; another product on a member's
    // customer.
    const [once, refunded, renewed, cancelled, disputed] = await Promise.all(
      Array.from({ length: 5 }, () => newVisitor(t.app)),
    );
    if (!once || !refunded || !renewed || !cancelled || !disputed) throw new Error('visitors');
    members.push(once, refunded, renewed, cancelled, disputed);

    stripe.paidPaymentIntent(earlyAccessMetadata(once.userId, MEMBERSHIP_PRICE));
    const refundedIntent = stripe.paidPaymentIntent(
      earlyAccessMetadata(refunded.userId, MEMBERSHIP_PRICE),
    );
    stripe.refundPaymentIntent(refundedIntent.id);
    const subscription = async (visitor: Visitor) => {
      const started = await visitor.request({ method: 'POST', url: '/api/checkout' });
      return stripe.completeCheckout(new URL(started.json().url).pathname.split('/').pop() ?? '');
    };
    const renewedPaid = await subscription(renewed);
    stripe.renewSubscription(renewedPaid.subscription.id);
    stripe.subscribeToOtherProduct(String(renewedPaid.subscription.customer));
    const cancelledPaid = await subscription(cancelled);
    stripe.cancelSubscription(cancelledPaid.subscription.id);
    const disputedPaid = await subscription(disputed);
    stripe.closeDispute(stripe.openDispute(disputedPaid.charge.id).id, 'lost');
    await stripe.deliverPending();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Every membership, and every paid period with its state, as the ledger holds them. */
  async function ledger() {
    const { rows: memberships } = await t.database.pool.query(
      `SELECT "userId", plan, status, "expiresAt" FROM memberships ORDER BY "userId"`,
    );
    const { rows: entitlements } = await t.database.pool.query(
      `SELECT id, "userId", source, state, "stateReason", "periodStart", "periodEnd", "paidAt", days
       FROM entitlements ORDER BY "userId", "paidAt", "periodStart", id`,
    );
    const { rows: subscriptions } = await t.database.pool.query(
      `SELECT id, "userId", status FROM subscriptions ORDER BY id`,
    );
    return { memberships, entitlements, subscriptions };
  }

  /** What a restore from an old backup loses: every Stripe record, the users kept. */
  async function loseTheLedger() {
    await t.database.pool.query(
      `TRUNCATE stripe_events, stripe_event_users, stripe_actions, entitlements, subscriptions,
                stripe_customers, memberships`,
    );
  }

  const deps = () => {
    const payments = t.app.requirePayments();
    return { ...payments, db: t.database, log: t.app.log, graceDays: 7 };
  };
  const since = () => new Date(Date.now() - 24 * 3600 * 1000);

  it('restores exactly the memberships the webhooks made, and a second run changes nothing', async () => {
    const before = await ledger();
    expect(before.memberships.map((m: { status: string }) => m.status).sort()).toEqual([
      'active',
      'active',
      'canceled',
      'refunded',
      'revoked',
    ]);
    await loseTheLedger();
    expect((await ledger()).memberships).toEqual([]);

    const first = await reconcileStripe(deps(), { since: since() });
    expect(first.failures).toEqual([]);
    expect(await ledger()).toEqual(before);
    expect(first.eventsReplayed.length).toBe(stripe.events.length);
    expect(first.changes.map((change) => change.userId).sort()).toEqual(
      members.map((member) => member.userId).sort(),
    );
    expect(formatReconcileReport(first)).toContain('Memberships changed: 5.');

    const second = await reconcileStripe(deps(), { since: since() });
    expect(second.failures).toEqual([]);
    expect(second.eventsReplayed).toEqual([]);
    expect(second.changes).toEqual([]);
    expect(await ledger()).toEqual(before);
    expect(formatReconcileReport(second)).toContain('Memberships changed: none.');
  });

  it('reaches past the 30 days Stripe keeps events: live subscriptions and payments are read again', async () => {
    const before = await ledger();
    await loseTheLedger();
    // As if every event were older than the Events API reaches.
    const kept = stripe.events.splice(0);
    try {
      const report = await reconcileStripe(deps(), { since: new Date('2026-01-01T00:00:00Z') });
      expect(report.eventsListed).toBe(0);
      // Everything comes back from Stripe itself: the one-time year and its refund, the renewed
      // subscription with both its periods, the cancelled one, the lost dispute.
      expect(await ledger()).toEqual(before);
      expect(formatReconcileReport(report)).toContain('Stripe lists events of the last 30 days');
    } finally {
      stripe.events.unshift(...kept);
    }
  });

  it('runs as `npm run stripe:reconcile -- --since 1d` against the site’s database', async (context) => {
    if (t.testDatabase.embedded) {
      context.skip('the embedded test database serves one backend');
    }
    const before = await ledger();
    await loseTheLedger();
    const { code, stdout } = await runCommand(main, ['reconcile', '--since', '1d'], {
      ...stripe.env(),
      DATABASE_URL: t.testDatabase.url,
    });
    expect(code).toBe(0);
    expect(stdout).toContain(`${stripe.events.length} not recorded before and now handled`);
    expect(stdout).toContain('Memberships changed: 5.');
    expect(stdout).toMatch(
      /user [0-9a-f-]{36}: no membership → (one-time|subscription) active until \d{4}-/,
    );
    expect(await ledger()).toEqual(before);
  });
});
