import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, type Member } from '#test/factories';
import { tokenFromMail, waitForMail } from '#test/registration';
import { newVisitor } from '#test/visitor';
import { giveAndPay, withGivingSite, type Caller, type Site } from '#test/with-site';
import { deliverGiftMails } from '../../gifts/gifts.js';
import { readDashboard } from '../../desk/dashboard.js';

// Gifts through the real app and PostgreSQL, against the fake Stripe: a visitor buys a
// year for someone's address; once paid, the buyer gets a receipt and the recipient a claim link
// (at the send date); claiming puts a year of its own on the recipient's account after the time
// they hold; a refund before the claim stops it, one after ends that year only.

const OWNER = 'gifts-owner@example.com';
const EDITOR = 'gifts-editor@example.com';
const SITE = 'https://cohort.example';
const DAY_MS = 24 * 3600 * 1000;

describe('gifts', () => {
  let t: Site;
  let owner: Member;
  let editor: Member;

  /** Buys a gift as `buyer` and pays it at the fake Stripe; answers the PaymentIntent's id. */
  const buyAndPay = (buyer: Caller, payload: object) => giveAndPay(t, buyer, '/api/gifts', payload);

  const gift = async (paymentIntentId: string) =>
    (
      await t.database.pool.query(`SELECT * FROM gifts WHERE "paymentIntentId" = $1`, [
        paymentIntentId,
      ])
    ).rows[0];

  beforeAll(async () => {
    ({
      site: t,
      owner,
      editor,
    } = await withGivingSite(
      { owner: OWNER, editor: EDITOR },
      { SITE_URL: SITE, MEMBERSHIP_PRICE_CENTS: '1200' },
    ));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a wrong gift with a 400 and a message, and makes no payment', async () => {
    const visitor = await newVisitor(t.app);
    const before = t.stripe.requestsTo('POST', '/v1/payment_intents').length;
    const soon = new Date(Date.now() + DAY_MS).toISOString();
    for (const payload of [
      {},
      { recipientEmail: 'not-an-address' },
      { recipientEmail: 'friend@example.com', buyerEmail: 'me@' },
      { recipientEmail: 'friend@example.com', sendAt: '2020-01-01T00:00:00Z' },
      { recipientEmail: 'friend@example.com', sendAt: '2030-01-01T00:00:00Z' },
      { recipientEmail: 'friend@example.com', sendAt: 'tomorrow' },
      { recipientEmail: 'friend@example.com', message: 'x'.repeat(501) },
      { recipientEmail: 'friend@example.com', fromName: 'y'.repeat(81), sendAt: soon },
      { recipientEmail: 'friend@example.com', amountCents: 1 },
    ]) {
      const refused = await t.call(visitor, 'POST', '/api/gifts', payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().error.message, JSON.stringify(payload)).toBeTruthy();
    }
    expect(t.stripe.requestsTo('POST', '/v1/payment_intents').length).toBe(before);
    expect((await t.database.pool.query('SELECT count(*)::int AS n FROM gifts')).rows[0].n).toBe(0);
  });

  it('sells a visitor a year for a friend: receipt, claim link, a claimed year after the time the friend holds, and a notice to the buyer', async () => {
    const visitor = await newVisitor(t.app);
    const bought = await t.call(visitor, 'POST', '/api/gifts', {
      recipientEmail: ' Friend.One@Example.com ',
      buyerEmail: 'giver@example.com',
      // The giver's name and message are kept as the site's text rule cleans them.
      fromName: 'Ada\u202e\u200b',
      message: 'Happy birthday!\r\nRead the boycott list first.\u0007',
    });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json()).toMatchObject({ amountCents: 1200, currency: 'usd' });
    // A double submit gets the same payment, and the same gift, back.
    const again = await t.call(visitor, 'POST', '/api/gifts', {
      recipientEmail: ' Friend.One@Example.com ',
      buyerEmail: 'giver@example.com',
      fromName: 'Ada\u202e\u200b',
      message: 'Happy birthday!\r\nRead the boycott list first.\u0007',
    });
    expect(again.json()).toEqual(bought.json());
    const paymentIntentId = String(bought.json().clientSecret).split('_secret_')[0] ?? '';
    expect(t.stripe.get(paymentIntentId)).toMatchObject({
      amount: 1200,
      metadata: { offer: 'gift', recipientEmail: 'friend.one@example.com', fromName: 'Ada' },
    });

    // Nothing exists before it is paid.
    await t.stripe.deliverPending();
    expect(await gift(paymentIntentId)).toBeUndefined();

    t.stripe.succeedPaymentIntent(paymentIntentId);
    await t.stripe.deliverPending();
    await t.app.giving.deliverNow();
    expect(await gift(paymentIntentId)).toMatchObject({
      id: bought.json().giftId,
      recipientEmail: 'friend.one@example.com',
      buyerEmail: 'giver@example.com',
      state: 'active',
      amountCents: 1200,
      claimedAt: null,
    });
    const receipt = await waitForMail(t.mailbox, 'giver@example.com');
    expect(receipt.subject).toBe('Your gift of Cohort to friend.one@example.com: receipt');
    expect(receipt.text).toContain('$12');
    const link = await waitForMail(t.mailbox, 'friend.one@example.com');
    expect(link.subject).toBe('Ada gave you a year of Cohort');
    expect(link.text).toContain('Happy birthday!\nRead the boycott list first.');
    const token = tokenFromMail(link.text, `${SITE}/gift/claim`);
    // A second sweep sends nothing again.
    expect(await t.app.giving.deliverNow()).toEqual({ sent: 0, failed: 0 });

    // The friend already holds a year paid once: the gift's year comes after it.
    const friend = await buildMember(t, { email: 'friend.one@example.com' });
    const own = t.stripe.paidPaymentIntent({
      userId: friend.userId,
      offer: 'early-access',
      priceCents: '1200',
      currency: 'usd',
    });
    await t.stripe.deliverPending();
    const ownEnd = Date.parse((await t.me(friend)).membership?.expiresAt ?? '');
    expect(ownEnd).toBeGreaterThan(Date.now() + 364 * DAY_MS);

    const preview = await t.call(null, 'POST', '/api/gifts/preview', { token });
    expect(preview.statusCode, preview.body).toBe(401);
    const visitorPreview = await t.call(visitor, 'POST', '/api/gifts/preview', { token });
    expect(visitorPreview.json()).toEqual({
      fromName: 'Ada',
      message: 'Happy birthday!\nRead the boycott list first.',
      state: 'ready',
      claimedByYou: false,
      days: 365,
    });
    // An anonymous visitor is asked to sign in: the year is kept on an account.
    const anonymous = await t.call(visitor, 'POST', '/api/gifts/claim', { token });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('sign_in_required');

    const claimed = await t.call(friend, 'POST', '/api/gifts/claim', { token });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(Date.parse(claimed.json().user.membership.expiresAt)).toBe(ownEnd + 365 * DAY_MS);
    expect(await gift(paymentIntentId)).toMatchObject({ claimedBy: friend.userId });
    const payments = (await t.call(friend, 'GET', '/api/account/payments')).json().payments;
    expect(payments.map((p: { kind: string }) => p.kind).sort()).toEqual(['gift', 'one-time']);

    // The buyer is told; claiming again changes nothing; nobody else can claim it.
    await t.app.giving.deliverNow();
    const notice = await waitForMail(t.mailbox, 'giver@example.com', 2);
    expect(notice.subject).toBe('Your gift of Cohort was claimed');
    const twice = await t.call(friend, 'POST', '/api/gifts/claim', { token });
    expect(twice.statusCode).toBe(200);
    expect(twice.json().user.membership.expiresAt).toBe(claimed.json().user.membership.expiresAt);
    const stranger = await buildMember(t, { email: 'gifts-stranger@example.com' });
    const taken = await t.call(stranger, 'POST', '/api/gifts/claim', { token });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('gift_claimed');
    expect((await t.call(friend, 'POST', '/api/gifts/preview', { token })).json()).toMatchObject({
      state: 'claimed',
      claimedByYou: true,
    });

    // A refund of the friend's own year leaves the gift's year in place, now from today.
    t.stripe.refundPaymentIntent(own.id as string);
    await t.stripe.deliverPending();
    const afterRefund = Date.parse((await t.me(friend)).membership?.expiresAt ?? '');
    expect(Math.abs(afterRefund - (Date.now() + 365 * DAY_MS))).toBeLessThan(60_000);

    // The gift's money is counted in the month it was bought.
    const dashboard = await readDashboard(
      { db: t.database },
      { currency: 'usd', graceDays: 7, perkTitles: new Map() },
    );
    expect(dashboard.months.at(-1)?.revenueByPlan.gift).toBe(1200);
  });

  it('refunded before the claim, the gift cannot be claimed; refunded after it, only its year ends', async () => {
    const buyer = await buildMember(t, { email: 'gifts-buyer@example.com' });
    const first = await buyAndPay(buyer, { recipientEmail: 'gifts-late@example.com' });
    const token = tokenFromMail(
      (await waitForMail(t.mailbox, 'gifts-late@example.com')).text,
      `${SITE}/gift/claim`,
    );
    // A member's receipt goes to their account's address.
    expect((await waitForMail(t.mailbox, 'gifts-buyer@example.com')).subject).toContain('receipt');
    t.stripe.refundPaymentIntent(first);
    await t.stripe.deliverPending();
    expect(await gift(first)).toMatchObject({ state: 'refunded', stateReason: 'refund' });
    const late = await buildMember(t, { email: 'gifts-late@example.com' });
    const refused = await t.call(late, 'POST', '/api/gifts/claim', { token });
    expect(refused.statusCode).toBe(410);
    expect(refused.json().error.code).toBe('gift_refunded');
    expect((await t.call(late, 'POST', '/api/gifts/preview', { token })).statusCode).toBe(410);
    expect((await t.me(late)).membership).toBeNull();

    const second = await buyAndPay(buyer, { recipientEmail: 'gifts-late@example.com' });
    const secondToken = tokenFromMail(
      (await waitForMail(t.mailbox, 'gifts-late@example.com', 2)).text,
      `${SITE}/gift/claim`,
    );
    const claimed = await t.call(late, 'POST', '/api/gifts/claim', { token: secondToken });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().user.membership.status).toBe('active');
    t.stripe.refundPaymentIntent(second);
    await t.stripe.deliverPending();
    const after = await t.me(late);
    expect(after.membership?.status).toBe('refunded');
    expect(after.isSubscribed).toBe(false);
    const { rows } = await t.database.pool.query(
      `SELECT source::text, state::text FROM entitlements WHERE "userId" = $1`,
      [late.userId],
    );
    expect(rows).toEqual([{ source: 'gift', state: 'refunded' }]);
  });

  it('mails the claim link on the send date, not before', async () => {
    const visitor = await newVisitor(t.app);
    const sendAt = new Date(Date.now() + 3 * DAY_MS);
    const id = await buyAndPay(visitor, {
      recipientEmail: 'gifts-later@example.com',
      buyerEmail: 'gifts-planner@example.com',
      sendAt: sendAt.toISOString(),
    });
    expect((await waitForMail(t.mailbox, 'gifts-planner@example.com')).text).toContain(
      'We will mail them the claim link on',
    );
    expect(t.mailbox.mailsTo('gifts-later@example.com')).toEqual([]);
    expect(await gift(id)).toMatchObject({ sentAt: null, tokenHash: null });
    const report = await deliverGiftMails(t.app.giving.deps, new Date(sendAt.getTime() + 1000));
    expect(report).toEqual({ sent: 1, failed: 0 });
    expect((await waitForMail(t.mailbox, 'gifts-later@example.com')).subject).toBe(
      'Someone gave you a year of Cohort',
    );
  });

  it('lists unclaimed gifts in the desk, where an owner mails one again or to a corrected address; the old link stops working', async () => {
    const visitor = await newVisitor(t.app);
    const id = await buyAndPay(visitor, { recipientEmail: 'gifts-typo@exmaple.com' });
    const oldToken = tokenFromMail(
      (await waitForMail(t.mailbox, 'gifts-typo@exmaple.com')).text,
      `${SITE}/gift/claim`,
    );
    const listed = await t.call(owner, 'GET', '/api/desk/gifts');
    expect(listed.statusCode).toBe(200);
    const row = listed
      .json()
      .gifts.find((g: { paymentIntentId: string }) => g.paymentIntentId === id);
    expect(row).toMatchObject({ recipientEmail: 'gifts-typo@exmaple.com', state: 'active' });
    expect(
      listed
        .json()
        .gifts.some(
          (g: { recipientEmail: string }) => g.recipientEmail === 'friend.one@example.com',
        ),
    ).toBe(false); // claimed

    expect((await t.call(editor, 'GET', '/api/desk/gifts')).statusCode).toBe(200);
    const editorMove = await t.call(editor, 'POST', `/api/desk/gifts/${row.id}/address`, {
      recipientEmail: 'gifts-fixed@example.com',
    });
    expect(editorMove.statusCode).toBe(403);
    expect((await t.call(visitor, 'GET', '/api/desk/gifts')).statusCode).toBe(404);
    const bad = await t.call(owner, 'POST', `/api/desk/gifts/${row.id}/address`, {
      recipientEmail: 'nope',
    });
    expect(bad.statusCode).toBe(400);

    const moved = await t.call(owner, 'POST', `/api/desk/gifts/${row.id}/address`, {
      recipientEmail: 'Gifts-Fixed@example.com',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      mailed: true,
      gift: { recipientEmail: 'gifts-fixed@example.com', sentTo: 'gifts-fixed@example.com' },
    });
    const newToken = tokenFromMail(
      (await waitForMail(t.mailbox, 'gifts-fixed@example.com')).text,
      `${SITE}/gift/claim`,
    );
    const fixed = await buildMember(t, { email: 'gifts-fixed@example.com' });
    expect((await t.call(fixed, 'POST', '/api/gifts/claim', { token: oldToken })).statusCode).toBe(
      404,
    );
    const resent = await t.call(owner, 'POST', `/api/desk/gifts/${row.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    const newest = tokenFromMail(
      (await waitForMail(t.mailbox, 'gifts-fixed@example.com', 2)).text,
      `${SITE}/gift/claim`,
    );
    expect(newest).not.toBe(newToken);
    expect((await t.call(fixed, 'POST', '/api/gifts/claim', { token: newest })).statusCode).toBe(
      200,
    );
    const gone = await t.call(owner, 'POST', `/api/desk/gifts/${row.id}/resend`);
    expect(gone.statusCode).toBe(404);
    const audit = await t.database.pool.query(
      `SELECT action, "actorEmail", before->>'recipientEmail' AS before,
              after->>'recipientEmail' AS after
       FROM audit_log WHERE action LIKE 'gift_%' ORDER BY "createdAt"`,
    );
    expect(audit.rows).toEqual([
      {
        action: 'gift_address',
        actorEmail: OWNER,
        before: 'gifts-typo@exmaple.com',
        after: 'gifts-fixed@example.com',
      },
      {
        action: 'gift_resend',
        actorEmail: OWNER,
        before: 'gifts-fixed@example.com',
        after: 'gifts-fixed@example.com',
      },
    ]);
  });

  it('records a gift whose refund event arrives before its payment event as refunded, never claimable', async () => {
    const visitor = await newVisitor(t.app);
    const bought = await t.call(visitor, 'POST', '/api/gifts', {
      recipientEmail: 'gifts-race@example.com',
    });
    const id = String(bought.json().clientSecret).split('_secret_')[0] ?? '';
    t.stripe.succeedPaymentIntent(id);
    t.stripe.refundPaymentIntent(id);
    const events = [...t.stripe.pendingEvents()].reverse();
    t.stripe.clearPending();
    for (const event of events) {
      const { payload, headers } = t.stripe.signedDelivery(event);
      const response = await t.app.inject({
        method: 'POST',
        url: '/webhooks/stripe',
        payload,
        headers,
      });
      expect(response.statusCode).toBe(200);
    }
    await t.app.giving.deliverNow();
    expect(await gift(id)).toMatchObject({ state: 'refunded', sentAt: null });
    expect(t.mailbox.mailsTo('gifts-race@example.com')).toEqual([]);
  });
});
