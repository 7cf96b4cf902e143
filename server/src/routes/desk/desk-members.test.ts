import { beforeAll, describe, expect, it } from 'vitest';
import { newVisitor } from '#test/visitor';
import { earlyAccessMetadata } from '../../stripe/cohort-sales.js';
import { PASSWORD, EDITOR, OFFER, uniqueEmail, type Browser, useDeskSite } from '#test/desk-site';

// What an owner sees and does to members through the desk: a member re-read from Stripe, their
// Stripe events, browsers and sessions, a password reset, the search, and the newsletter's states
// and export.

describe('the publisher’s desk', () => {
  const { register, auditCount, member, audit, t, owner, editor } = useDeskSite();

  describe('what an owner can do', () => {
    it('re-reads from Stripe a member whose webhooks never arrived, and a second re-read changes nothing', async () => {
      // An anonymous reader pays the early-access year, and a registered one subscribes through
      // Checkout: Stripe holds both payments, but none of their webhooks ever reaches the site.
      const anonymous = await newVisitor(t.app);
      t.stripe.paidPaymentIntent(earlyAccessMetadata(anonymous.userId, OFFER));
      const subscriber = await register();
      const checkout = await t.call(subscriber, 'POST', '/api/checkout');
      t.stripe.completeCheckout(new URL(checkout.json().url).pathname.split('/').pop() ?? '');
      await t.stripe.deliverPending({ only: [] });
      expect((await anonymous.me()).isSubscribed).toBe(false);
      expect((await t.me(subscriber)).isSubscribed).toBe(false);

      // The anonymous payer has no row yet: the desk finds them by the id they give support.
      const unknown = await t.call(owner, 'POST', `/api/desk/members/${anonymous.userId}/reread`);
      expect(unknown.statusCode).toBe(404);
      await t.database.pool.query(`INSERT INTO users (id, "updatedAt") VALUES ($1, now())`, [
        anonymous.userId,
      ]);

      for (const who of [anonymous.userId, subscriber.userId]) {
        const reread = await t.call(owner, 'POST', `/api/desk/members/${who}/reread`);
        expect(reread.statusCode, reread.body).toBe(200);
        expect(reread.json().message).toMatch(/membership: none → \S+ active until/);
      }
      expect((await anonymous.me()).isSubscribed).toBe(true);
      const subscribed = await t.me(subscriber);
      expect(subscribed.isSubscribed).toBe(true);
      expect(subscribed.membership?.plan).toBe('subscription');

      const twice = await t.call(owner, 'POST', `/api/desk/members/${subscriber.userId}/reread`);
      expect(twice.json().message).toMatch(/the membership did not change/);
      expect(
        (await audit(subscriber.userId)).map((entry: { action: string }) => entry.action),
      ).toEqual(['stripe_reread', 'stripe_reread']);
      const record = await member(subscriber.userId);
      expect(record.ledger).toHaveLength(1);
      expect(record.customers[0].stripeUrl).toMatch(
        /^https:\/\/dashboard\.stripe\.com\/test\/customers\/cus_/,
      );
      expect(record.subscriptions[0].stripeUrl).toMatch(/\/test\/subscriptions\/sub_/);
    });

    it('lists every Stripe event recorded for a member, with its outcome and a Dashboard link', async () => {
      const payer = await register();
      const intent = t.stripe.paidPaymentIntent(earlyAccessMetadata(payer.userId, OFFER));
      await t.stripe.deliverPending();
      t.stripe.refundPaymentIntent(intent.id);
      await t.stripe.deliverPending();
      const record = await member(payer.userId);
      const byType = (type: string) =>
        record.events.find((event: { type: string }) => event.type === type);
      expect(byType('payment_intent.succeeded')).toMatchObject({
        outcome: 'applied',
        objectId: intent.id,
        stripeUrl: expect.stringMatching(/^https:\/\/dashboard\.stripe\.com\/test\/events\/evt_/),
      });
      expect(byType('charge.refunded')).toMatchObject({ outcome: 'applied' });
      // Events that name the payer but change nothing are listed too.
      expect(byType('payment_intent.created')).toMatchObject({ outcome: 'recorded' });
      expect(record.ledger[0]).toMatchObject({ state: 'refunded', source: 'one-time' });
      expect(record.ledger[0].stripeUrl).toBe(
        `https://dashboard.stripe.com/test/payments/${intent.id}`,
      );
    });

    it('lists a member’s signed-in browsers by name, keeping the User-Agent they sent', async () => {
      const email = uniqueEmail();
      await register(email);
      const firefox =
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
      const visitor = await newVisitor(t.app);
      const signedIn = await visitor.request({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'user-agent': firefox },
        payload: { email, password: PASSWORD },
      });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const userId = signedIn.json().user.id as string;
      const { sessions } = await member(userId);
      expect(sessions).toContainEqual(
        expect.objectContaining({ browser: 'Firefox 133 on Windows', userAgent: firefox }),
      );
    });

    it('ends every session of a member, but never an anonymous payer’s only one', async () => {
      const leaving = await register();
      expect((await t.call(leaving, 'GET', '/api/me')).statusCode).toBe(200);
      const ended = await t.call(owner, 'POST', `/api/desk/members/${leaving.userId}/sessions/end`);
      expect(ended.statusCode, ended.body).toBe(200);
      expect((await t.call(leaving, 'GET', '/api/me')).statusCode).toBe(401);
      expect((await audit(leaving.userId))[0]).toMatchObject({
        action: 'sessions_end',
        before: { sessions: 1 },
        after: { sessions: 0 },
      });

      const anonymous = await newVisitor(t.app);
      t.stripe.paidPaymentIntent(earlyAccessMetadata(anonymous.userId, OFFER));
      await t.stripe.deliverPending();
      const refused = await t.call(
        owner,
        'POST',
        `/api/desk/members/${anonymous.userId}/sessions/end`,
      );
      expect(refused.statusCode).toBe(409);
      expect((await anonymous.me()).isSubscribed).toBe(true);
    });

    it('mails a member a password-reset link that works', async () => {
      const email = uniqueEmail();
      const forgetful = await register(email);
      const sent = await t.call(
        owner,
        'POST',
        `/api/desk/members/${forgetful.userId}/password-reset`,
      );
      expect(sent.statusCode, sent.body).toBe(200);
      const mail = t.mailbox.mailsTo(email).at(-1);
      const token = /#token=([\w-]+)/.exec(mail?.text ?? '')?.[1];
      expect(token).toBeDefined();
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token, password: 'a brand new passphrase here' },
      });
      expect(reset.statusCode).toBe(200);
      expect((await audit(forgetful.userId))[0]).toMatchObject({
        action: 'password_reset_sent',
        after: { to: email },
      });
    });

    it('finds members by any part of an email, a user id or a Stripe customer id, filters them, and pages through them', async () => {
      const search = async (query: string) =>
        (await t.call(owner, 'GET', `/api/desk/members?${query}`)).json();
      const [first] = (await search('q=desk-')).members;
      expect(first.email).toMatch(/^desk-/);
      expect((await search(`q=${first.email.slice(3, 12).toUpperCase()}`)).members).toContainEqual(
        expect.objectContaining({ id: first.id }),
      );
      expect((await search(`q=${first.id}`)).members.map((m: { id: string }) => m.id)).toEqual([
        first.id,
      ]);
      const { rows } = await t.database.pool.query<{ id: string; userId: string }>(
        'SELECT id, "userId" FROM stripe_customers LIMIT 1',
      );
      const customer = rows[0];
      if (!customer) throw new Error('no Stripe customer yet');
      expect((await search(`q=${customer.id}`)).members.map((m: { id: string }) => m.id)).toEqual([
        customer.userId,
      ]);
      // A percent sign is a character to find, not a wildcard.
      expect((await search('q=%25')).members).toEqual([]);

      const members = (await search('filter=member')).members;
      expect(members.length).toBeGreaterThan(0);
      expect(members.every((m: { isMember: boolean }) => m.isMember)).toBe(true);
      const anonymous = (await search('filter=anonymous')).members;
      expect(anonymous.length).toBeGreaterThan(0);
      expect(anonymous.every((m: { email: string | null }) => m.email === null)).toBe(true);
      const refunded = (await search('filter=refunded_or_disputed')).members;
      expect(refunded).toHaveLength(1);
      const expired = (await search('filter=expired')).members;
      expect(
        expired.every(
          (m: { isMember: boolean; membership: unknown }) => !m.isMember && m.membership,
        ),
      ).toBe(true);

      // Every user, a page at a time, each once, newest first.
      const everyone = Number(
        (await t.database.pool.query('SELECT count(*) FROM users')).rows[0].count,
      );
      const seen: string[] = [];
      let after: string | null = null;
      do {
        const page: { members: { id: string; createdAt: string }[]; next: string | null } = (
          await t.call(owner, 'GET', `/api/desk/members${after ? `?after=${after}` : ''}`)
        ).json();
        seen.push(...page.members.map((m) => m.id));
        after = page.next;
        expect(page.members.length).toBeLessThanOrEqual(50);
      } while (after);
      expect(seen).toHaveLength(everyone);
      expect(new Set(seen).size).toBe(everyone);

      const bad = await t.call(owner, 'GET', '/api/desk/members?after=not-a-cursor');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('invalid_cursor');
    });

    describe('the newsletter', () => {
      const stamp = `nl-${Date.now()}`;
      const ids = (page: { members: { id: string }[] }) => page.members.map((m) => m.id).sort();
      const list = async (query: string) =>
        (await t.call(owner, 'GET', `/api/desk/members?${query}`)).json();
      let people: Record<'subscribed' | 'unsubscribed' | 'pending' | 'bouncing' | 'never', Browser>;

      beforeAll(async () => {
        const [subscribed, unsubscribed, pending, bouncing, never] = (await Promise.all(
          ['subscribed', 'unsubscribed', 'pending', 'bouncing', 'never'].map((name) =>
            register(`${stamp}-${name}@example.com`),
          ),
        )) as [Browser, Browser, Browser, Browser, Browser];
        people = { subscribed, unsubscribed, pending, bouncing, never };
        // Through the newsletter's own routes: /account's switch (on, and on then off), and the
        // public sign-up form for a registered address (pending until its link is pressed).
        for (const [who, choices] of [
          [subscribed, [true]],
          [unsubscribed, [true, false]],
          [bouncing, [true]],
        ] as const) {
          for (const choice of choices) {
            const response = await t.call(who, 'POST', '/api/newsletter/subscription', {
              subscribed: choice,
            });
            expect(response.statusCode, response.body).toBe(200);
          }
        }
        const signUp = await t.call(null, 'POST', '/api/newsletter/subscribe', {
          email: `${stamp}-pending@example.com`,
        });
        expect(signUp.statusCode, signUp.body).toBe(202);
        // Three permanent failures in a row (the delivery queue's rule), and an address without an
        // account that a spreadsheet would run as a formula.
        await t.database.pool.query(
          `UPDATE newsletter_subscribers SET state = 'bouncing', "permanentFailures" = 3
           WHERE "userId" = $1`,
          [bouncing.userId],
        );
        await t.database.pool.query(
          `INSERT INTO newsletter_subscribers (id, email, state, "confirmedAt", "updatedAt")
           VALUES (gen_random_uuid(), $1, 'confirmed', now(), now())`,
          [`=hyperlink("https://evil.example")${stamp}@example.com`],
        );
      });

      it('filters members by newsletter state, exactly', async () => {
        // Over everyone: the only account subscribed is this one.
        expect(ids(await list('filter=newsletter_subscribed'))).toEqual([people.subscribed.userId]);
        expect(ids(await list('filter=newsletter_unsubscribed'))).toEqual([
          people.unsubscribed.userId,
        ]);
        expect(ids(await list('filter=newsletter_pending'))).toEqual([people.pending.userId]);
        expect(ids(await list('filter=newsletter_bouncing'))).toEqual([people.bouncing.userId]);
        expect(ids(await list(`filter=newsletter_not_subscribed&q=${stamp}`))).toEqual(
          [people.unsubscribed, people.pending, people.bouncing, people.never]
            .map((who) => who.userId)
            .sort(),
        );
        const page = await list(`q=${stamp}`);
        expect(
          Object.fromEntries(
            page.members.map((m: { id: string; newsletter: string | null }) => [
              m.id,
              m.newsletter,
            ]),
          ),
        ).toEqual({
          [people.subscribed.userId]: 'confirmed',
          [people.unsubscribed.userId]: 'unsubscribed',
          [people.pending.userId]: 'pending',
          [people.bouncing.userId]: 'bouncing',
          [people.never.userId]: null,
        });
      });

      it('shows a member’s newsletter state, and puts it in the members CSV', async () => {
        const view = (
          await t.call(editor, 'GET', `/api/desk/members/${people.subscribed.userId}`)
        ).json().user.newsletter;
        expect(view.state).toBe('confirmed');
        expect(Date.now() - Date.parse(view.since)).toBeLessThan(60_000);
        expect(
          (await t.call(editor, 'GET', `/api/desk/members/${people.unsubscribed.userId}`)).json()
            .user.newsletter.state,
        ).toBe('unsubscribed');
        expect(
          (await t.call(editor, 'GET', `/api/desk/members/${people.never.userId}`)).json().user
            .newsletter,
        ).toBeNull();

        const csv = await t.call(owner, 'GET', `/api/desk/exports/members?q=${stamp}`);
        const [header, ...rows] = csv.body.trim().split('\n');
        expect(header?.split(',').at(-1)).toBe('newsletter');
        expect(
          Object.fromEntries(rows.map((row) => [row.split(',')[0], row.split(',').at(-1)])),
        ).toEqual({
          [people.subscribed.userId]: 'confirmed',
          [people.unsubscribed.userId]: 'unsubscribed',
          [people.pending.userId]: 'pending',
          [people.bouncing.userId]: 'bouncing',
          [people.never.userId]: '',
        });
      });

      it('exports the confirmed subscribers only, formulas escaped, and audits the export', async () => {
        const before = await auditCount();
        const response = await t.call(editor, 'GET', '/api/desk/exports/newsletter');
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(response.headers['content-disposition']).toMatch(
          /^attachment; filename="newsletter-subscribers-\d{4}-\d{2}-\d{2}\.csv"$/,
        );
        const [header, ...rows] = response.body.trim().split('\n');
        expect(header).toBe('email,confirmed_at,user_id');
        // Not the pending, unsubscribed or bouncing ones: only the two confirmed addresses.
        expect(rows.map((row) => row.replace(/,[^,]*,[^,]*$/, '')).sort()).toEqual(
          [
            `${stamp}-subscribed@example.com`,
            `"'=hyperlink(""https://evil.example"")${stamp}@example.com"`,
          ].sort(),
        );
        expect(rows.find((row) => row.startsWith(`${stamp}-subscribed@`))).toMatch(
          new RegExp(`,\\d{4}-[^,]+Z,${people.subscribed.userId}$`),
        );
        expect(response.body).not.toMatch(/(^|\n|,)=/);

        expect(await auditCount()).toBe(before + 1);
        const [entry] = (await t.call(owner, 'GET', '/api/desk/audit')).json().entries;
        expect(entry).toMatchObject({
          action: 'newsletter_export',
          actorEmail: EDITOR,
          targetUserId: null,
          after: { state: 'confirmed', subscribers: 2 },
        });
      });
    });
  });
});
