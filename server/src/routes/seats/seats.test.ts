import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, type Member } from '#test/factories';
import { waitForMail } from '#test/registration';
import { newVisitor } from '#test/visitor';
import { giveAndPay, withGivingSite, type Caller, type Site } from '#test/with-site';
import { readDashboard } from '../../desk/dashboard.js';

// Solidarity seats through the real app and PostgreSQL, against the fake Stripe: a
// supporter pays for N years; readers ask for one with a note; an owner grants (or the monthly
// number does, first come first served); a granted seat is a year of its own on the reader's
// ledger; a refund of the supporter's payment takes back only its seats not yet granted.

const OWNER = 'seats-owner@example.com';
const EDITOR = 'seats-editor@example.com';
const DAY_MS = 24 * 3600 * 1000;
const NOTE = 'I lost my job this spring and cannot pay for now.';

describe('solidarity seats', () => {
  let t: Site;
  let owner: Member;
  let editor: Member;

  /** Funds `seats` as `supporter` and pays at the fake Stripe; answers the PaymentIntent's id. */
  const fund = (supporter: Caller, payload: object) =>
    giveAndPay(t, supporter, '/api/seats', payload);

  const ask = (who: Caller, note = NOTE) => t.call(who, 'POST', '/api/seats/requests', { note });
  const pool = async () => (await t.call(null, 'GET', '/api/seats/pool')).json();
  const desk = async () => (await t.call(owner, 'GET', '/api/desk/seats')).json().seats;
  const requestOf = async (who: Member) =>
    (await desk()).requests.find((r: { userId: string }) => r.userId === who.userId);

  beforeAll(async () => {
    ({
      site: t,
      owner,
      editor,
    } = await withGivingSite({ owner: OWNER, editor: EDITOR }, { MEMBERSHIP_PRICE_CENTS: '1200' }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a wrong funding or request with a 400 and a message, and changes nothing', async () => {
    const visitor = await newVisitor(t.app);
    const before = t.stripe.requestsTo('POST', '/v1/payment_intents').length;
    for (const payload of [
      {},
      { seats: 0 },
      { seats: 51 },
      { seats: '2' },
      { seats: 2, supporterEmail: 'nope' },
      { seats: 2, priceCents: 1 },
    ]) {
      const refused = await t.call(visitor, 'POST', '/api/seats', payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().error.message).toBeTruthy();
    }
    expect(t.stripe.requestsTo('POST', '/v1/payment_intents').length).toBe(before);

    expect((await ask(visitor)).statusCode).toBe(401); // no account
    const reader = await buildMember(t, { email: 'seats-short@example.com' });
    for (const note of ['', 'help', 'x'.repeat(501), '\u0007\u202e\u200b help \u0007']) {
      const refused = await ask(reader, note);
      expect(refused.statusCode, note).toBe(400);
      expect(refused.json().error.code).toBe('invalid_note');
    }
    expect(
      (await t.database.pool.query('SELECT count(*)::int AS n FROM seat_requests')).rows[0].n,
    ).toBe(0);
    expect(await pool()).toEqual({ given: 0, available: 0, waiting: 0 });
  });

  it('funds seats, grants a request from the desk, and gives the reader a year of their own', async () => {
    const supporter = await newVisitor(t.app);
    const paid = await fund(supporter, { seats: 2, supporterEmail: 'seats-giver@example.com' });
    expect(t.stripe.get(paid)).toMatchObject({
      amount: 2400,
      metadata: { offer: 'seats', seats: '2', supporterEmail: 'seats-giver@example.com' },
    });
    expect((await waitForMail(t.mailbox, 'seats-giver@example.com')).subject).toBe(
      'Your 2 seats for Cohort: receipt',
    );
    expect(await pool()).toEqual({ given: 0, available: 2, waiting: 0 });

    const reader = await buildMember(t, { email: 'seats-reader@example.com' });
    const asked = await ask(reader);
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json().request).toMatchObject({ note: NOTE, state: 'open' });
    expect((await ask(reader)).json().error.code).toBe('request_open');
    expect(await pool()).toEqual({ given: 0, available: 2, waiting: 1 });

    const request = await requestOf(reader);
    expect(request).toMatchObject({ email: 'seats-reader@example.com', note: NOTE, state: 'open' });
    expect(
      (await t.call(editor, 'POST', `/api/desk/seats/requests/${request.id}/grant`)).statusCode,
    ).toBe(403);
    const granted = await t.call(owner, 'POST', `/api/desk/seats/requests/${request.id}/grant`);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json().seats.pool).toEqual({ given: 1, available: 1, waiting: 0 });
    const user = await t.me(reader);
    expect(user.isSubscribed).toBe(true);
    expect(
      Math.abs(Date.parse(user.membership?.expiresAt ?? '') - (Date.now() + 365 * DAY_MS)),
    ).toBeLessThan(60_000);
    const payments = (await t.call(reader, 'GET', '/api/account/payments')).json().payments;
    expect(payments).toMatchObject([{ kind: 'sponsored', amountCents: 0, state: 'active' }]);
    // The desk's page of the reader: a seat given, with no Stripe payment to link to.
    const record = (await t.call(owner, 'GET', `/api/desk/members/${reader.userId}`)).json();
    expect(record.ledger).toMatchObject([{ source: 'sponsored', stripeUrl: null }]);
    await t.app.giving.deliverNow();
    expect((await waitForMail(t.mailbox, 'seats-reader@example.com')).subject).toBe(
      'A year of Cohort, from a reader who paid it forward',
    );
    // A member asks for nothing more; granting twice changes nothing.
    expect((await ask(reader, `${NOTE} Again.`)).json().error.code).toBe('already_member');
    expect(
      (await t.call(owner, 'POST', `/api/desk/seats/requests/${request.id}/grant`)).statusCode,
    ).toBe(404);
    const audit = await t.database.pool.query(
      `SELECT action, "targetUserId" FROM audit_log WHERE action LIKE 'seat%'`,
    );
    expect(audit.rows).toEqual([{ action: 'seat_grant', targetUserId: reader.userId }]);
  });

  it('grants the monthly number on its own, first come first served, and never more than the pool holds', async () => {
    const first = await buildMember(t, { email: 'seats-first@example.com' });
    const second = await buildMember(t, { email: 'seats-second@example.com' });
    const declined = await buildMember(t, { email: 'seats-declined@example.com' });
    expect((await ask(first)).statusCode).toBe(201);
    expect((await ask(second)).statusCode).toBe(201);
    expect((await ask(declined)).statusCode).toBe(201);

    const refused = await t.call(owner, 'PUT', '/api/desk/seats', { autoGrantPerMonth: -1 });
    expect(refused.statusCode).toBe(400);
    const set = await t.call(owner, 'PUT', '/api/desk/seats', { autoGrantPerMonth: 5 });
    expect(set.statusCode, set.body).toBe(200);
    // One seat was left: the oldest request takes it; the others wait for more money.
    expect(set.json().seats).toMatchObject({
      autoGrantPerMonth: 5,
      grantedThisMonth: 1,
      pool: { given: 2, available: 0, waiting: 2 },
    });
    expect((await t.me(first)).isSubscribed).toBe(true);
    expect((await t.me(second)).isSubscribed).toBe(false);
    const emptyGrant = await t.call(
      owner,
      'POST',
      `/api/desk/seats/requests/${(await requestOf(second)).id}/grant`,
    );
    expect(emptyGrant.statusCode).toBe(409);
    expect(emptyGrant.json().error.code).toBe('pool_empty');
    const decline = await t.call(
      owner,
      'POST',
      `/api/desk/seats/requests/${(await requestOf(declined)).id}/decline`,
    );
    expect(decline.statusCode).toBe(200);
    expect((await requestOf(declined)).state).toBe('declined');

    // New money: the waiting request is granted on the next sweep, on its own.
    const supporter = await buildMember(t, { email: 'seats-supporter@example.com' });
    await fund(supporter, { seats: 3 });
    expect((await t.me(second)).isSubscribed).toBe(true);
    expect(await pool()).toEqual({ given: 3, available: 2, waiting: 0 });

    // The supporter's refund takes back its two seats not granted; the granted one stays given.
    const mine = (await t.call(supporter, 'GET', '/api/seats/mine')).json();
    expect(mine.fundings).toMatchObject([{ seats: 3, granted: 1, state: 'active' }]);
    const paymentIntentId = (
      await t.database.pool.query(
        `SELECT "paymentIntentId" FROM seat_fundings WHERE "supporterUserId" = $1`,
        [supporter.userId],
      )
    ).rows[0].paymentIntentId;
    t.stripe.refundPaymentIntent(paymentIntentId);
    await t.stripe.deliverPending();
    expect(await pool()).toEqual({ given: 3, available: 0, waiting: 0 });
    expect((await t.me(second)).isSubscribed).toBe(true);
    expect((await t.call(supporter, 'GET', '/api/seats/mine')).json().fundings).toMatchObject([
      { seats: 3, granted: 1, state: 'refunded' },
    ]);
    // The dashboard counts the seats' money when paid, and the refund when it came.
    const dashboard = await readDashboard(
      { db: t.database },
      { currency: 'usd', graceDays: 7, perkTitles: new Map() },
    );
    expect(dashboard.months.at(-1)).toMatchObject({
      revenueByPlan: { seats: 2400 + 3600 },
      refundedCents: 3600,
    });
  });

  it('lets a reader withdraw their request', async () => {
    const reader = await buildMember(t, { email: 'seats-withdraw@example.com' });
    expect((await ask(reader)).statusCode).toBe(201);
    const withdrawn = await t.call(reader, 'DELETE', '/api/seats/requests/mine');
    expect(withdrawn.json()).toEqual({ withdrawn: true });
    expect((await t.call(reader, 'GET', '/api/seats/mine')).json().requests).toMatchObject([
      { state: 'withdrawn' },
    ]);
    expect((await ask(reader)).statusCode).toBe(201); // and ask again later
  });

  it('gives the last seat once when two owners grant it at the same moment', async () => {
    await t.call(owner, 'PUT', '/api/desk/seats', { autoGrantPerMonth: 0 });
    const a = await buildMember(t, { email: 'seats-race-a@example.com' });
    const b = await buildMember(t, { email: 'seats-race-b@example.com' });
    expect((await ask(a)).statusCode).toBe(201);
    expect((await ask(b)).statusCode).toBe(201);
    await fund(await newVisitor(t.app), { seats: 1, supporterEmail: 'seats-race@example.com' });
    const before = await pool();
    expect(before.available).toBe(1);
    const [first, second] = await Promise.all(
      [a, b].map(async (who) =>
        t.call(owner, 'POST', `/api/desk/seats/requests/${(await requestOf(who)).id}/grant`),
      ),
    );
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([200, 409]);
    expect(await pool()).toEqual({
      given: before.given + 1,
      available: 0,
      waiting: before.waiting - 1,
    });
    expect([(await t.me(a)).isSubscribed, (await t.me(b)).isSubscribed].sort()).toEqual([
      false,
      true,
    ]);
  });
});
