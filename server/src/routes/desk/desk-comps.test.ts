import { describe, expect, it } from 'vitest';
import { OWNER, useDeskSite } from '#test/desk-site';

// What an owner gives through the desk: a comp that makes an account a member until its end date,
// on the ledger and in the audit log, refused without a real end or a reason; and the dashboard and
// the audit log staff see.

describe('the publisher’s desk', () => {
  const { register, grant, member, audit, t, owner, editor } = useDeskSite();

  describe('what an owner can do', () => {
    it('grants a comp that makes /api/me a member until its end date, on the ledger and in the audit log', async () => {
      const guest = await register();
      const lastDay = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
      const granted = await grant(guest.userId, lastDay);
      expect(granted.statusCode, granted.body).toBe(200);

      const user = await t.me(guest);
      expect(user.isSubscribed).toBe(true);
      // Through the whole of the last day (UTC).
      expect(user.membership?.expiresAt).toBe(
        new Date(Date.parse(`${lastDay}T00:00:00Z`) + 86_400_000).toISOString(),
      );
      const record = await member(guest.userId);
      const [comp] = record.ledger;
      expect(comp).toMatchObject({
        source: 'comp',
        state: 'active',
        amountCents: 0,
        compReason: 'Speaker at our spring event',
        periodEnd: user.membership?.expiresAt,
        endable: true,
        stripeUrl: null,
      });
      expect(record.audit).toEqual([
        expect.objectContaining({
          actorEmail: OWNER,
          action: 'comp_grant',
          targetUserId: guest.userId,
          before: { membership: null },
          after: expect.objectContaining({
            membership: expect.objectContaining({
              isMember: true,
              expiresAt: user.membership?.expiresAt,
            }),
          }),
        }),
      ]);

      // Ending it ends the membership now, and is audited with the period before and after.
      const ended = await t.call(
        owner,
        'POST',
        `/api/desk/members/${guest.userId}/comps/${comp.id}/end`,
      );
      expect(ended.statusCode, ended.body).toBe(200);
      expect((await t.me(guest)).isSubscribed).toBe(false);
      const [endEntry] = await audit(guest.userId);
      expect(endEntry).toMatchObject({
        action: 'comp_end',
        before: { comp: { periodEnd: user.membership?.expiresAt } },
      });
      const again = await t.call(
        owner,
        'POST',
        `/api/desk/members/${guest.userId}/comps/${comp.id}/end`,
      );
      expect(again.statusCode).toBe(409);
    });

    it('gives a comp through the last day the desk entered, and every answer names that day, not the next', async () => {
      const guest = await register();
      const granted = await grant(guest.userId, '2027-11-24');
      expect(granted.statusCode, granted.body).toBe(200);
      expect(granted.json().message).toMatch(
        /^Comp granted through 2027-11-24: a member through 2027-11-24\./,
      );

      const user = await t.me(guest);
      expect(user.membership).toEqual({
        plan: 'one-time',
        status: 'active',
        // Access stops as 2027-11-25 begins (UTC): the 24th is the last day.
        expiresAt: '2027-11-25T00:00:00.000Z',
        lastDay: '2027-11-24',
      });
      const payments = (await t.call(guest, 'GET', '/api/account/payments')).json().payments;
      expect(payments).toEqual([
        expect.objectContaining({
          kind: 'comp',
          amountCents: 0,
          covers: expect.objectContaining({
            until: '2027-11-25T00:00:00.000Z',
            lastDay: '2027-11-24',
          }),
        }),
      ]);
      expect((await member(guest.userId)).user.membership.lastDay).toBe('2027-11-24');
    });

    it('refuses a comp without a real future end date or a reason (400), changing nothing', async () => {
      const guest = await register();
      for (const [until, reason] of [
        ['2020-01-01', 'long ago'],
        ['2026-02-31', 'no such day'],
        ['tomorrow', 'not a date'],
        ['2099-01-01', '  '],
        ['9999-12-31', 'too long a comp'],
      ]) {
        const response = await grant(guest.userId, until ?? '', reason);
        expect({ until, status: response.statusCode }).toEqual({ until, status: 400 });
      }
      const nextYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
      const nobody = await grant('00000000-0000-4000-8000-000000000000', nextYear);
      expect(nobody.statusCode).toBe(404);
      expect((await member(guest.userId)).ledger).toEqual([]);
      expect(await audit(guest.userId)).toEqual([]);
    });

    it('shows the dashboard and the audit log to staff', async () => {
      const dashboard = await t.call(editor, 'GET', '/api/desk/dashboard');
      expect(dashboard.statusCode, dashboard.body).toBe(200);
      const body = dashboard.json();
      expect(body.currency).toBe('usd');
      expect(body.weeks).toHaveLength(12);
      expect(body.months).toHaveLength(12);
      const { rows } = await t.database.pool.query<{ count: string }>(
        `SELECT count(*) FROM memberships WHERE status IN ('active', 'trialing', 'past_due')
           AND "expiresAt" > now()`,
      );
      expect(body.activeByPlan.total).toBe(Number(rows[0]?.count));
      expect(body.weeks.at(-1).members).toBe(body.activeByPlan.total);

      const log = (await t.call(editor, 'GET', '/api/desk/audit')).json();
      expect(log.entries.length).toBeGreaterThan(0);
      expect(log.entries[0].actorEmail).toBe(OWNER);
    });
  });
});
