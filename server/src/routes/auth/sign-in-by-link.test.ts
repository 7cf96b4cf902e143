import { describe, expect, it } from 'vitest';
import { sessionCookieOf, waitForMail } from '#test/registration';
import { newVisitor } from '#test/visitor';
import { uniqueEmail, useProvenAddressesSite } from '#test/proven-addresses-site';

// Signing in by a mailed link or code, which proves the address: once each, on the device that
// asked, within 15 minutes, a few wrong codes at most, and what it does to a browser's membership.

describe('proven addresses', () => {
  const { post, get, payEarlyAccess, legacyAccount, askForSignIn, smtp, t } =
    useProvenAddressesSite();

  describe('signing in by link or code', () => {
    it('answers an unknown address as a known one, and mails each a link and a code', async () => {
      const known = (await legacyAccount()).email;
      const unknown = uniqueEmail();
      const a = await post(null, '/api/auth/email-link', { email: known });
      const b = await post(null, '/api/auth/email-link', { email: unknown });
      expect(a.statusCode).toBe(202);
      expect(b.statusCode).toBe(202);
      expect(a.body).toBe(b.body);
      for (const email of [known, unknown]) {
        const mail = await waitForMail(smtp, email);
        expect(mail.text).toContain('https://cohort.example/sign-in/link#token=');
        expect(mail.text).toMatch(/asked for it: \d{6}/);
      }
    });

    it('signs in once with the link, never twice, and a scanner’s GET of the page signs nobody in', async () => {
      const account = await legacyAccount();
      const { token } = await askForSignIn(account.email);
      // A mail scanner follows the link: a page, nothing used up, nobody signed in.
      const scanned = await get(null, `/sign-in/link#token=${token}`);
      expect(scanned.cookies).toEqual([]);
      const row = await t.database.prisma.emailSignIn.findFirstOrThrow({
        where: { email: account.email, purpose: 'sign-in' },
      });
      expect(row.usedAt).toBeNull();

      const visitor = await newVisitor(t.app);
      const first = await post(visitor.cookie, '/api/auth/email-link/confirm', { token });
      expect(first.statusCode).toBe(200);
      expect(first.json().user).toMatchObject({ id: account.id, email: account.email });
      const second = await post(null, '/api/auth/email-link/confirm', { token });
      expect(second.statusCode).toBe(410);
      expect(second.json().error.code).toBe('link_expired');

      // The browser's session says how it signed in.
      const sessions = await get(sessionCookieOf(first), '/api/account/sessions');
      const current = sessions.json().sessions.find((s: { current: boolean }) => s.current);
      expect(current.signInMethod).toBe('link');
      const byPassword = sessions.json().sessions.find((s: { current: boolean }) => !s.current);
      expect(byPassword.signInMethod).toBe('password');
    });

    it('signs in once with the code on the device that asked', async () => {
      const account = await legacyAccount();
      const device = await newVisitor(t.app);
      const { code } = await askForSignIn(account.email, device.cookie);
      const first = await post(device.cookie, '/api/auth/email-code/confirm', {
        email: account.email.toUpperCase(),
        code,
      });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().user.id).toBe(account.id);
      const sessions = await get(sessionCookieOf(first), '/api/account/sessions');
      expect(
        sessions.json().sessions.find((s: { current: boolean }) => s.current).signInMethod,
      ).toBe('code');
      const second = await post(null, '/api/auth/email-code/confirm', {
        email: account.email,
        code,
      });
      expect(second.statusCode).toBe(410);
      expect(second.json().error.code).toBe('code_expired');
    });

    it('refuses the link and the code once 15 minutes have passed', async () => {
      const account = await legacyAccount();
      const { token, code } = await askForSignIn(account.email);
      await t.database.prisma.emailSignIn.updateMany({
        where: { email: account.email },
        data: { expiresAt: new Date(Date.now() - 1000) },
      });
      const link = await post(null, '/api/auth/email-link/confirm', { token });
      expect(link.statusCode).toBe(410);
      const typed = await post(null, '/api/auth/email-code/confirm', {
        email: account.email,
        code,
      });
      expect(typed.statusCode).toBe(410);
    });

    it('kills the code and its link after 5 wrong codes', async () => {
      const account = await legacyAccount();
      const { token, code } = await askForSignIn(account.email);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i += 1) {
        const response = await post(null, '/api/auth/email-code/confirm', {
          email: account.email,
          code: wrong,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json().error.code).toBe('invalid_code');
      }
      const right = await post(null, '/api/auth/email-code/confirm', {
        email: account.email,
        code,
      });
      expect(right.statusCode).toBe(410);
      // The row died with its code.
      const row = await t.database.prisma.emailSignIn.findFirstOrThrow({
        where: { email: account.email, purpose: 'sign-in' },
      });
      expect(row.codeAttempts).toBe(5);
      const link = await post(null, '/api/auth/email-link/confirm', { token });
      expect(link.statusCode).toBe(410);
    });

    it('ends the earlier link and code when a new one is asked for', async () => {
      const account = await legacyAccount();
      const earlier = await askForSignIn(account.email);
      const later = await askForSignIn(account.email);
      expect(
        (await post(null, '/api/auth/email-link/confirm', { token: earlier.token })).statusCode,
      ).toBe(410);
      if (earlier.code !== later.code) {
        expect(
          (
            await post(null, '/api/auth/email-code/confirm', {
              email: account.email,
              code: earlier.code,
            })
          ).statusCode,
        ).toBe(400);
      }
      expect(
        (await post(null, '/api/auth/email-link/confirm', { token: later.token })).statusCode,
      ).toBe(200);
    });

    it('makes the account on a first sign-in by link, keeping the visitor’s anonymous membership', async () => {
      const visitor = await newVisitor(t.app);
      await payEarlyAccess(visitor);
      const email = uniqueEmail();
      const { token } = await askForSignIn(email, visitor.cookie);
      expect(await t.database.prisma.user.count({ where: { email } })).toBe(0);
      const response = await post(visitor.cookie, '/api/auth/email-link/confirm', { token });
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ id: visitor.userId, email, isSubscribed: true });
      const row = await t.database.prisma.user.findUniqueOrThrow({ where: { email } });
      expect(row.emailVerifiedAt).not.toBeNull();
      expect(row.passwordHash).toBeNull();
    });

    it('leaves the membership of a browser that did not ask for the link where it is, unless its reader moves it', async () => {
      const stranger = await legacyAccount();
      const { token } = await askForSignIn(stranger.email, stranger.cookie);
      const victim = await newVisitor(t.app);
      await payEarlyAccess(victim);

      const refused = await post(victim.cookie, '/api/auth/email-link/confirm', { token });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error.code).toBe('membership_here');
      expect(await victim.me()).toMatchObject({
        id: victim.userId,
        email: null,
        isSubscribed: true,
      });
      expect(await t.database.prisma.entitlement.count({ where: { userId: stranger.id } })).toBe(0);
      // The page names the address and asks; the link is still unused.
      const preview = await post(victim.cookie, '/api/auth/email-link/preview', { token });
      expect(preview.json()).toEqual({ email: stranger.email, askToMove: true });
      const moved = await post(victim.cookie, '/api/auth/email-link/confirm', {
        token,
        moveMembership: true,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().user).toMatchObject({ id: stranger.id, isSubscribed: true });
    });

    it('makes the account on the paid anonymous id of a browser that did not ask for the link only when its reader says so', async () => {
      const email = uniqueEmail();
      const asker = await newVisitor(t.app);
      const { token } = await askForSignIn(email, asker.cookie);
      const opener = await newVisitor(t.app);
      await payEarlyAccess(opener);
      const refused = await post(opener.cookie, '/api/auth/email-link/confirm', { token });
      expect(refused.statusCode).toBe(409);
      expect(await t.database.prisma.user.count({ where: { email } })).toBe(0);
      expect(await opener.me()).toMatchObject({ email: null, isSubscribed: true });
      // A browser holding nothing has nothing to lose: no question.
      const empty = await newVisitor(t.app);
      expect((await post(empty.cookie, '/api/auth/email-link/preview', { token })).json()).toEqual({
        email,
        askToMove: false,
      });
      const moved = await post(opener.cookie, '/api/auth/email-link/confirm', {
        token,
        moveMembership: true,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().user).toMatchObject({ id: opener.userId, email, isSubscribed: true });
    });

    it('refuses codes for an address after 20 wrong ones in a day, a fresh right one too, while the link still works', async () => {
      const account = await legacyAccount();
      const tryCode = (code: string) =>
        post(null, '/api/auth/email-code/confirm', { email: account.email, code });
      const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
      // Four mails: five wrong codes on each of three, four on the fourth (19 in all).
      for (const misses of [5, 5, 5, 4]) {
        const { code } = await askForSignIn(account.email);
        for (let i = 0; i < misses; i += 1) {
          expect((await tryCode(wrongFor(code))).json().error.code).toBe('invalid_code');
        }
      }
      const fresh = await askForSignIn(account.email);
      expect(fresh.code).toMatch(/^\d{6}$/);
      expect((await tryCode(wrongFor(fresh.code))).statusCode).toBe(400); // the 20th
      const right = await tryCode(fresh.code);
      expect(right.statusCode, right.body).toBe(429);
      expect(right.json().error.code).toBe('too_many_codes');
      expect(right.json().error.message).toMatch(/link/);
      const link = await post(null, '/api/auth/email-link/confirm', { token: fresh.token });
      expect(link.statusCode, link.body).toBe(200);

      // The next mail says so, and carries no code (the five-mails limit set aside for this).
      await t.database.pool.query("DELETE FROM sign_in_counters WHERE key LIKE 'mail:%'");
      const { mail, code } = await askForSignIn(account.email);
      expect(code).toBe('');
      expect(mail.subject).not.toMatch(/code/);
      expect(mail.text).toContain('no code');
    });

    it('mails one address at most five times in 15 minutes, answering every request alike', async () => {
      const email = uniqueEmail();
      const answers = [];
      for (let i = 0; i < 7; i += 1) {
        answers.push(await post(null, '/api/auth/email-link', { email }));
      }
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(7).fill(202));
      expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
      await waitForMail(smtp, email, 5);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.mailsTo(email)).toHaveLength(5);
    });

    it('refuses a bad body with 400 and changes nothing', async () => {
      const rows = await t.database.prisma.emailSignIn.count();
      for (const [url, payload] of [
        ['/api/auth/email-link', {}],
        ['/api/auth/email-link', { email: 'not an address' }],
        ['/api/auth/email-link', { email: 'a@example.com', extra: 1 }],
        ['/api/auth/email-link/confirm', { token: '' }],
        ['/api/auth/register/confirm', {}],
        ['/api/auth/register/confirm', { token: 'x'.repeat(43) }],
        ['/api/auth/email-link/confirm', { token: 'x'.repeat(43), moveMembership: 'yes' }],
        ['/api/auth/email-code/confirm', { email: 'a@example.com' }],
        ['/api/auth/email-code/confirm', { email: 'a@example.com', code: 'abcdef' }],
      ] as const) {
        const response = await post(null, url, payload);
        expect({ url, status: response.statusCode }).toEqual({ url, status: 400 });
        expect(response.json().error.message).toBeTruthy();
      }
      expect(await t.database.prisma.emailSignIn.count()).toBe(rows);
    });
  });
});
