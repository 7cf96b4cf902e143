import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, buildStaff, type Member } from '#test/factories';
import { newVisitor, type Visitor } from '#test/visitor';
import { withSite, type Caller, type Site } from '#test/with-site';
import { randomUUID } from 'node:crypto';
import { mayStartTrial } from '../../memberships/plan-catalog.js';

// Plans through the real app and PostgreSQL, against the fake Stripe: the monthly and
// yearly subscriptions and the one-time year on sale, each priced and turned on or off by owners
// in the desk; a price change makes a new Stripe Price and leaves subscribers on theirs.

const OWNER = 'plans-owner@example.com';
const EDITOR = 'plans-editor@example.com';
const DAY_MS = 24 * 3600 * 1000;

describe('plans', () => {
  let t: Site;
  let owner: Member;
  let editor: Member;

  const config = async () => (await t.app.inject({ method: 'GET', url: '/api/config' })).json();
  const onSale = async () => (await config()).plans.map((plan: { id: string }) => plan.id);
  const change = (plan: string, payload: object, who: Caller | null = owner) =>
    t.call(who, 'PUT', `/api/desk/plans/${plan}`, payload);

  /** Starts a Checkout for `payload` and answers its Session at the fake Stripe. */
  async function checkout(visitor: Visitor, payload?: object) {
    const response = await visitor.request({
      method: 'POST',
      url: '/api/checkout',
      ...(payload && { payload }),
    });
    expect(response.statusCode, response.body).toBe(200);
    return t.stripe.get(new URL(response.json().url).pathname.split('/').pop() ?? '');
  }

  beforeAll(async () => {
    t = await withSite({
      payments: true,
      mail: true,
      env: {
        STAFF_EMAILS: OWNER,
        EDITOR_EMAILS: EDITOR,
        MEMBERSHIP_PRICE_CENTS: '1200',
        MONTHLY_PRICE_CENTS: '100',
      },
    });
    [owner, editor] = await buildStaff(t, 'owner', 'editor');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sells a dollar a month: the Checkout is for a monthly Price, and paying it is a month of membership', async () => {
    const visitor = await newVisitor(t.app);
    const session = await checkout(visitor, { plan: 'monthly' });
    const price = t.stripe.get(String(session.price));
    expect(price).toMatchObject({
      unit_amount: 100,
      currency: 'usd',
      recurring: { interval: 'month' },
      lookup_key: 'cohort_membership_monthly_100_usd',
    });
    expect(session.metadata).toMatchObject({ userId: visitor.userId, plan: 'monthly' });

    const paid = t.stripe.completeCheckout(String(session.id));
    await t.stripe.deliverPending();
    const user = await visitor.me();
    expect(user.isSubscribed).toBe(true);
    const expires = Date.parse(user.membership?.expiresAt ?? '');
    expect(expires - Date.now()).toBeGreaterThan(27 * DAY_MS);
    expect(expires - Date.now()).toBeLessThan(32 * DAY_MS);
    const row = await t.database.pool.query(`SELECT interval FROM subscriptions WHERE id = $1`, [
      paid.subscription.id,
    ]);
    expect(row.rows[0]).toEqual({ interval: 'month' });

    // A month later the renewal adds the next month.
    t.stripe.renewSubscription(paid.subscription.id);
    await t.stripe.deliverPending();
    const renewed = Date.parse((await visitor.me()).membership?.expiresAt ?? '');
    expect(renewed - expires).toBeGreaterThan(27 * DAY_MS);
    expect(renewed - expires).toBeLessThan(32 * DAY_MS);
  });

  it('sells the yearly plan when no plan is named (as before plans), and refuses a plan that does not exist', async () => {
    const visitor = await newVisitor(t.app);
    const session = await checkout(visitor);
    expect(t.stripe.get(String(session.price))).toMatchObject({
      unit_amount: 1200,
      recurring: { interval: 'year' },
    });
    for (const payload of [{ plan: 'weekly' }, { plan: 'monthly', coupon: 'x' }, { plan: 7 }, []]) {
      const refused = await visitor.request({ method: 'POST', url: '/api/checkout', payload });
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().error.message).toBeTruthy();
    }
  });

  it('lets owners price and turn plans on and off in the desk; editors look, strangers find nothing', async () => {
    const listed = await t.call(editor, 'GET', '/api/desk/plans');
    expect(listed.statusCode).toBe(200);
    expect(
      listed.json().plans.map((p: { id: string; enabled: boolean }) => [p.id, p.enabled]),
    ).toEqual([
      ['early-access', true],
      ['monthly', true],
      ['yearly', true],
    ]);
    expect((await change('monthly', { amountCents: 200 }, editor)).statusCode).toBe(403);
    const reader = await buildMember(t, { email: 'plans-reader@example.com' });
    expect((await change('monthly', { amountCents: 200 }, reader)).statusCode).toBe(404);
    expect((await t.call(reader, 'GET', '/api/desk/plans')).statusCode).toBe(404);

    // Wrong bodies: a 400 that says why, and nothing changes.
    const before = await t.call(owner, 'GET', '/api/desk/plans');
    for (const payload of [
      {},
      { amountCents: 10 },
      { amountCents: 12.5 },
      { amountCents: '200' },
      { enabled: 'no' },
      { amountCents: 200, currency: 'eur' },
    ]) {
      const refused = await change('monthly', payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().error.message).toBeTruthy();
    }
    expect((await change('weekly', { amountCents: 200 })).statusCode).toBe(404);
    expect((await t.call(owner, 'GET', '/api/desk/plans')).json()).toEqual(before.json());

    const changed = await change('monthly', { amountCents: 200 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().plan).toMatchObject({ id: 'monthly', amountCents: 200, enabled: true });
    const audit = await t.database.pool.query(
      `SELECT "actorEmail", before, after FROM audit_log WHERE action = 'plan_change'`,
    );
    expect(audit.rows).toEqual([
      {
        actorEmail: OWNER,
        before: {
          plan: 'monthly',
          enabled: true,
          amountCents: 100,
          currency: 'usd',
          trialDays: 0,
          trialNeedsCard: true,
        },
        after: {
          plan: 'monthly',
          enabled: true,
          amountCents: 200,
          currency: 'usd',
          trialDays: 0,
          trialNeedsCard: true,
        },
      },
    ]);
    expect((await config()).plans[1]).toMatchObject({ id: 'monthly', amountCents: 200 });
  });

  it('charges a new price from a new Stripe Price, and leaves those who subscribed at the old one on it', async () => {
    await change('monthly', { amountCents: 100 });
    const early = await newVisitor(t.app);
    const first = t.stripe.completeCheckout(
      String((await checkout(early, { plan: 'monthly' })).id),
    );
    await t.stripe.deliverPending();

    expect((await change('monthly', { amountCents: 300 })).statusCode).toBe(200);
    const late = await newVisitor(t.app);
    const session = await checkout(late, { plan: 'monthly' });
    expect(t.stripe.get(String(session.price))).toMatchObject({
      unit_amount: 300,
      lookup_key: 'cohort_membership_monthly_300_usd',
    });

    // The early subscriber renews at $1, and the renewal still counts.
    const expires = Date.parse((await early.me()).membership?.expiresAt ?? '');
    const renewal = t.stripe.renewSubscription(first.subscription.id);
    expect(renewal.invoice.amount_paid).toBe(100);
    await t.stripe.deliverPending();
    expect(Date.parse((await early.me()).membership?.expiresAt ?? '')).toBeGreaterThan(expires);
    await change('monthly', { amountCents: 100 });
  });

  it('lets a member switch monthly → yearly → monthly: Stripe’s proration charges the difference, and access is the time paid', async () => {
    const member = await buildMember(t, { email: 'plans-switcher@example.com' });
    const as = (url: string, payload?: unknown) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { cookie: member.cookie },
        ...(payload !== undefined && { payload: payload as object }),
      });
    const me = async () =>
      (
        await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: member.cookie } })
      ).json().user;

    const none = await as('/api/account/plan', { plan: 'yearly' });
    expect(none.statusCode).toBe(409);
    expect(none.json().error.code).toBe('no_subscription');

    const started = await as('/api/checkout', { plan: 'monthly' });
    const sessionId = new URL(started.json().url).pathname.split('/').pop() ?? '';
    const paid = t.stripe.completeCheckout(sessionId);
    await t.stripe.deliverPending();
    const monthEnd = Date.parse((await me()).membership.expiresAt);

    expect((await as('/api/account/plan', { plan: 'monthly' })).json().error.code).toBe(
      'already_on_plan',
    );
    for (const payload of [{ plan: 'weekly' }, {}, { plan: 'yearly', now: true }]) {
      expect((await as('/api/account/plan', payload)).statusCode, JSON.stringify(payload)).toBe(
        400,
      );
    }

    // To yearly: a year from now, for $12 less the unused month (about $1).
    const yearly = await as('/api/account/plan', { plan: 'yearly' });
    expect(yearly.statusCode, yearly.body).toBe(200);
    const yearEnd = Date.parse(yearly.json().user.membership.expiresAt);
    expect(yearEnd - Date.now()).toBeGreaterThan(364 * DAY_MS);
    expect(yearEnd).toBeGreaterThan(monthEnd);
    const subscription = t.stripe.get(paid.subscription.id);
    const upgrade = t.stripe.get(String(subscription.latest_invoice));
    expect(upgrade.billing_reason).toBe('subscription_update');
    expect(upgrade.amount_paid).toBeGreaterThanOrEqual(1100);
    expect(upgrade.amount_paid).toBeLessThan(1200);
    const switches = t.stripe.requestsTo('POST', `/v1/subscriptions/${paid.subscription.id}`);
    expect(switches.at(-1)?.body).toMatchObject({
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
    });
    const row = await t.database.pool.query(`SELECT interval FROM subscriptions WHERE id = $1`, [
      paid.subscription.id,
    ]);
    expect(row.rows[0]).toEqual({ interval: 'year' });

    // Back to monthly: the unused year is a credit larger than a month, so nothing is charged,
    // and the access paid for (to the year's end) is kept, never more.
    const monthly = await as('/api/account/plan', { plan: 'monthly' });
    expect(monthly.statusCode, monthly.body).toBe(200);
    const downgrade = t.stripe.get(String(t.stripe.get(paid.subscription.id).latest_invoice));
    expect(downgrade.amount_paid).toBe(0);
    expect(Number(t.stripe.get(String(subscription.customer)).balance)).toBeLessThan(-1000);
    const after = Date.parse(monthly.json().user.membership.expiresAt);
    expect(Math.abs(after - yearEnd)).toBeLessThan(5_000);

    // The webhooks for all of it change nothing more.
    await t.stripe.deliverPending({ order: 'shuffled', duplicate: true, seed: 7 });
    expect(Math.abs(Date.parse((await me()).membership.expiresAt) - yearEnd)).toBeLessThan(5_000);
    const payments = (
      await t.app.inject({
        method: 'GET',
        url: '/api/account/payments',
        headers: { cookie: member.cookie },
      })
    ).json().payments;
    // The three invoices (paid within a second: their order is the ids'), each named by its period.
    expect(payments.map((p: { interval: string }) => p.interval).sort()).toEqual([
      'month',
      'month',
      'year',
    ]);
  });

  it('gives a free trial once per reader: access marked as a trial, paid after it with a card, ended without one', async () => {
    expect((await change('early-access', { trialDays: 7 })).json().error.code).toBe(
      'trial_subscriptions_only',
    );
    for (const payload of [{ trialDays: 91 }, { trialDays: -1 }, { trialNeedsCard: 'yes' }]) {
      expect((await change('monthly', payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await change('monthly', { trialDays: 14 })).statusCode).toBe(200);
    expect((await config()).plans[1]).toMatchObject({ id: 'monthly', trialDays: 14 });
    const sessionOf = async (cookie: string) => {
      const started = await t.app.inject({
        method: 'POST',
        url: '/api/checkout',
        headers: { cookie },
        payload: { plan: 'monthly' },
      });
      expect(started.statusCode, started.body).toBe(200);
      return t.stripe.get(new URL(started.json().url).pathname.split('/').pop() ?? '');
    };
    const me = async (cookie: string) =>
      (await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).json().user;
    const trialDaysOf = (session: Record<string, unknown>) =>
      (session.subscription_data as { trial_period_days?: string }).trial_period_days;

    // A visitor without an account: no trial (one could be taken per browser).
    const visitor = await newVisitor(t.app);
    expect(trialDaysOf(await sessionOf(visitor.cookie))).toBeUndefined();

    // A reader with an account: 14 days, with a card asked for up front.
    const reader = await buildMember(t, { email: 'plans-trial@example.com' });
    const session = await sessionOf(reader.cookie);
    expect(trialDaysOf(session)).toBe('14');
    expect(session.payment_method_collection).toBe('always');
    const { subscription } = t.stripe.completeTrialCheckout(String(session.id));
    await t.stripe.deliverPending();
    const trialing = await me(reader.cookie);
    expect(trialing).toMatchObject({ isSubscribed: true, membership: { status: 'trialing' } });
    const trialEnd = Date.parse(trialing.membership.expiresAt);
    expect(Math.abs(trialEnd - (Date.now() + 14 * DAY_MS))).toBeLessThan(60_000);
    const stored = await t.database.pool.query(
      `SELECT trial, "amountCents" FROM entitlements WHERE "userId" = $1`,
      [reader.userId],
    );
    expect(stored.rows).toEqual([{ trial: true, amountCents: 0 }]);

    // A plan is switched after the trial, not during it.
    const during = await t.app.inject({
      method: 'POST',
      url: '/api/account/plan',
      headers: { cookie: reader.cookie },
      payload: { plan: 'yearly' },
    });
    expect(during.statusCode).toBe(409);
    expect(during.json().error.code).toBe('in_trial');

    // The trial converts: the first month is charged, after the trial.
    const { invoice } = t.stripe.endTrial(String(subscription.id));
    expect(invoice?.amount_paid).toBe(100);
    await t.stripe.deliverPending();
    const converted = await me(reader.cookie);
    expect(converted.membership.status).toBe('active');
    expect(Date.parse(converted.membership.expiresAt) - trialEnd).toBeGreaterThan(27 * DAY_MS);

    // Without a card up front: Checkout collects none, and the trial's end ends the subscription.
    expect((await change('monthly', { trialNeedsCard: false })).statusCode).toBe(200);
    const other = await buildMember(t, { email: 'plans-trial-no-card@example.com' });
    const noCard = await sessionOf(other.cookie);
    expect(noCard).toMatchObject({
      payment_method_collection: 'if_required',
      subscription_data: { trial_settings: { end_behavior: { missing_payment_method: 'cancel' } } },
    });
    const lapsing = t.stripe.completeTrialCheckout(String(noCard.id));
    await t.stripe.deliverPending();
    const charges = t.stripe.requestsTo('POST', '/v1/payment_intents').length;
    const ended = t.stripe.endTrial(String(lapsing.subscription.id));
    expect(ended.invoice).toBeNull();
    await t.stripe.deliverPending();
    const lapsed = await me(other.cookie);
    const row = await t.database.pool.query(`SELECT status FROM subscriptions WHERE id = $1`, [
      lapsing.subscription.id,
    ]);
    expect(row.rows[0]).toEqual({ status: 'canceled' });
    // Access to the trial's end (now, when Stripe ends it), never past it, and nothing charged.
    expect(
      Math.abs(Date.parse(lapsed.membership.expiresAt) - Date.parse(trialing.membership.expiresAt)),
    ).toBeLessThan(60_000);
    expect(t.stripe.requestsTo('POST', '/v1/payment_intents').length).toBe(charges);

    // A second trial: not for the same account, nor for its address (under another account),
    // nor for an address nobody proved; a new reader still gets one.
    const pool = t.database.pool;
    const email = 'plans-trial-no-card@example.com';
    expect(await mayStartTrial(pool, { userId: other.userId, email, emailVerified: true })).toBe(
      false,
    );
    expect(
      await mayStartTrial(pool, {
        userId: randomUUID(),
        email: email.toUpperCase(),
        emailVerified: true,
      }),
    ).toBe(false);
    // The trial's address, even once its account has moved to another one.
    await pool.query(`UPDATE users SET email = 'plans-moved-on@example.com' WHERE id = $1`, [
      other.userId,
    ]);
    expect(await mayStartTrial(pool, { userId: randomUUID(), email, emailVerified: true })).toBe(
      false,
    );
    const fresh = { userId: randomUUID(), email: 'plans-fresh@example.com' };
    expect(await mayStartTrial(pool, { ...fresh, emailVerified: false })).toBe(false);
    expect(await mayStartTrial(pool, { ...fresh, emailVerified: true })).toBe(true);
    await change('monthly', { trialDays: 0, trialNeedsCard: true });
  });

  it('moves members who subscribed at an older price to the new one, each told by mail first, charged from their renewal', async () => {
    await change('yearly', { amountCents: 1200 });
    // Three yearly members at $12: one with an account, one anonymous, one renewing in 3 days.
    const told = await buildMember(t, { email: 'plans-mover@example.com' });
    const subscribe = async (cookie: string, periodEnd?: number) => {
      const started = await t.app.inject({
        method: 'POST',
        url: '/api/checkout',
        headers: { cookie },
        payload: { plan: 'yearly' },
      });
      const id = new URL(started.json().url).pathname.split('/').pop() ?? '';
      return t.stripe.completeCheckout(id, periodEnd === undefined ? {} : { periodEnd })
        .subscription;
    };
    const toldSub = await subscribe(told.cookie);
    const anonymous = await newVisitor(t.app);
    const anonymousSub = await subscribe(anonymous.cookie);
    const soon = await buildMember(t, { email: 'plans-renews-soon@example.com' });
    const soonSub = await subscribe(soon.cookie, Math.floor(Date.now() / 1000) + 3 * 24 * 3600);
    // And one whose mail server refuses the notice: not told, so not moved.
    const unreachable = await buildMember(t, { email: 'plans-unreachable@example.com' });
    const unreachableSub = await subscribe(unreachable.cookie);
    await t.stripe.deliverPending();
    t.mailbox.refuse('plans-unreachable@example.com', 550);

    expect((await change('yearly', { amountCents: 1500 })).statusCode).toBe(200);
    const listed = (await t.call(owner, 'GET', '/api/desk/plans')).json().plans;
    expect(listed.find((p: { id: string }) => p.id === 'yearly').membersOnOtherPrices).toBe(4);
    const editorTry = await t.app.inject({
      method: 'POST',
      url: '/api/desk/plans/yearly/move-subscribers',
      headers: { cookie: editor.cookie },
    });
    expect(editorTry.statusCode).toBe(403);

    const mailsBefore = t.mailbox.mails.length;
    const invoiceBefore = t.stripe.get(String(toldSub.id)).latest_invoice;
    const moved = await t.app.inject({
      method: 'POST',
      url: '/api/desk/plans/yearly/move-subscribers',
      headers: { cookie: owner.cookie },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ moved: 1, renewsSoon: 1, noAddress: 1, notTold: 1 });

    // The one with an address, renewing in a year: told, then moved, and charged $15 at renewal.
    const notices = t.mailbox.mails.slice(mailsBefore);
    expect(notices.map((mail) => mail.to)).toEqual(['plans-mover@example.com']);
    expect(notices[0]?.subject).toMatch(/^Your Cohort membership: \$15 a year from /);
    expect(notices[0]?.text).toContain('instead of $12');
    const price = (id: string) =>
      (t.stripe.get(id).items as { data: { price: { unit_amount: number } }[] }).data[0]?.price
        .unit_amount;
    expect(price(String(toldSub.id))).toBe(1500);
    expect(price(String(anonymousSub.id))).toBe(1200);
    expect(price(String(soonSub.id))).toBe(1200);
    expect(price(String(unreachableSub.id))).toBe(1200);
    // Nothing charged or credited now: the paid year stays as it was.
    expect(t.stripe.get(String(toldSub.id)).latest_invoice).toBe(invoiceBefore);
    const renewal = t.stripe.renewSubscription(String(toldSub.id));
    expect(renewal.invoice.amount_paid).toBe(1500);
    await t.stripe.deliverPending();
    const after = (await t.call(owner, 'GET', '/api/desk/plans')).json().plans;
    expect(after.find((p: { id: string }) => p.id === 'yearly').membersOnOtherPrices).toBe(3);
    const audit = await t.database.pool.query(
      `SELECT after FROM audit_log WHERE action = 'plan_move_subscribers'`,
    );
    expect(audit.rows[0]?.after).toMatchObject({ plan: 'yearly', moved: 1, renewsSoon: 1 });
    await change('yearly', { amountCents: 1200 });
  });

  it('stops selling a plan turned off (but one plan stays on sale), and prices the one-time year from its plan', async () => {
    expect((await change('monthly', { enabled: false })).statusCode).toBe(200);
    expect(await onSale()).toEqual(['early-access', 'yearly']);
    const visitor = await newVisitor(t.app);
    const refused = await visitor.request({
      method: 'POST',
      url: '/api/checkout',
      payload: { plan: 'monthly' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toEqual({
      code: 'plan_unavailable',
      message: 'The "monthly" plan is not on sale; on sale: "early-access", "yearly".',
    });

    expect((await change('yearly', { enabled: false })).statusCode).toBe(200);
    const last = await change('early-access', { enabled: false });
    expect(last.statusCode).toBe(400);
    expect(last.json().error.code).toBe('last_plan');
    expect(await onSale()).toEqual(['early-access']);

    // The one-time year at a price set in the desk: charged, and granted when paid.
    expect((await change('early-access', { amountCents: 1500 })).statusCode).toBe(200);
    expect((await config()).priceCents).toBe(1500);
    const buyer = await newVisitor(t.app);
    const intent = await buyer.request({
      method: 'POST',
      url: '/create-payment-intent',
      payload: { items: [{ id: 'early-access' }] },
    });
    expect(intent.statusCode).toBe(200);
    const id = String(intent.json().clientSecret).split('_secret_')[0] ?? '';
    expect(t.stripe.get(id)).toMatchObject({ amount: 1500, metadata: { priceCents: '1500' } });
    t.stripe.succeedPaymentIntent(id);
    await t.stripe.deliverPending();
    expect((await buyer.me()).isSubscribed).toBe(true);

    expect((await change('yearly', { enabled: true })).statusCode).toBe(200);
    expect((await change('early-access', { enabled: false })).statusCode).toBe(200);
    const none = await newVisitor(t.app);
    const off = await none.request({
      method: 'POST',
      url: '/create-payment-intent',
      payload: { items: [{ id: 'early-access' }] },
    });
    expect(off.statusCode).toBe(400);
    expect(off.json().error.code).toBe('plan_unavailable');
    expect((await config()).priceCents).toBe(1200);

    // Members per plan, as the desk lists them.
    const desk = (await t.call(owner, 'GET', '/api/desk/plans')).json().plans;
    const members = Object.fromEntries(
      desk.map((p: { id: string; members: number }) => [p.id, p.members]),
    );
    expect(members['early-access']).toBe(1);
    expect(members.monthly).toBeGreaterThanOrEqual(2);
    expect(members.yearly).toBe(4); // the four who subscribed in the move test
    for (const plan of ['early-access', 'monthly', 'yearly']) {
      await change(plan, { enabled: true });
    }
  });
});
