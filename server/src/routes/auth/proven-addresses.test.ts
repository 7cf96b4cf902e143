import { describe, expect, it } from 'vitest';
import {
  registerThroughMail,
  sessionCookieOf,
  tokenFromMail,
  waitForMail,
} from '#test/registration';
import { withSite } from '#test/with-site';
import { newVisitor } from '#test/visitor';
import {
  PASSWORD,
  OWNER,
  LISTED,
  inAMonth,
  uniqueEmail,
  useProvenAddressesSite,
} from '#test/proven-addresses-site';

// Proving an address: registering through the mailed link, what an account needs a proven
// address for (the desk, a newsletter claim, a comp), and an email change once confirmed. Signing
// in by link or code is sign-in-by-link.test.ts's.

describe('proven addresses', () => {
  const { post, get, payEarlyAccess, legacyAccount, askForSignIn, smtp, t } =
    useProvenAddressesSite();

  describe('registering', () => {
    it('answers a taken address and a new one alike: same status and body, one mail each, about the same time', async () => {
      const taken = (await legacyAccount()).email;
      const fresh = uniqueEmail();
      const register = async (email: string) => {
        const visitor = await newVisitor(t.app);
        const started = performance.now();
        const response = await visitor.request({
          method: 'POST',
          url: '/api/auth/register',
          payload: { email, password: PASSWORD },
        });
        return { response, ms: performance.now() - started };
      };
      await register(uniqueEmail()); // warm-up
      const times = { taken: [] as number[], fresh: [] as number[] };
      const first = { taken: await register(taken), fresh: await register(fresh) };
      for (const key of ['taken', 'fresh'] as const) {
        expect(first[key].response.statusCode).toBe(202);
        expect(first[key].response.cookies).toEqual([]);
      }
      expect(first.taken.response.body).toBe(first.fresh.response.body);
      expect(Object.keys(first.taken.response.headers).sort()).toEqual(
        Object.keys(first.fresh.response.headers).sort(),
      );
      await waitForMail(smtp, taken);
      await waitForMail(smtp, fresh);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.mailsTo(taken)).toHaveLength(1);
      expect(smtp.mailsTo(fresh)).toHaveLength(1);
      expect(smtp.mailsTo(taken)[0]?.text).toContain('already has one');
      expect(smtp.mailsTo(fresh)[0]?.text).toContain('/register/confirm#token=');

      for (let i = 0; i < 4; i += 1) {
        times.taken.push((await register(taken)).ms);
        times.fresh.push((await register(uniqueEmail())).ms);
      }
      const median = (values: number[]) => values.sort((a, b) => a - b)[2] ?? 0;
      // Both paths run the same transaction (a taken address skips only its insert), and neither
      // hashes anything: the password an older page still sends is not used.
      expect(median(times.taken) / median(times.fresh)).toBeGreaterThan(0.5);
      expect(median(times.taken) / median(times.fresh)).toBeLessThan(2);
    });

    it('makes no account until the link is used, and the link works once', async () => {
      const visitor = await newVisitor(t.app);
      const email = uniqueEmail();
      await visitor.request({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email, password: PASSWORD },
      });
      const token = tokenFromMail((await waitForMail(smtp, email)).text, '/register/confirm');
      expect(await t.database.prisma.user.count({ where: { email } })).toBe(0);
      expect((await post(null, '/api/auth/login', { email, password: PASSWORD })).statusCode).toBe(
        401,
      );
      const stored = await t.database.prisma.emailSignIn.findFirstOrThrow({ where: { email } });
      expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.tokenHash).not.toContain(token);

      const confirmed = await post(visitor.cookie, '/api/auth/register/confirm', {
        token,
        password: PASSWORD,
      });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json().user).toMatchObject({ id: visitor.userId, email });
      const row = await t.database.prisma.user.findUniqueOrThrow({ where: { email } });
      expect(row.emailVerifiedAt).not.toBeNull();
      expect((await post(null, '/api/auth/login', { email, password: PASSWORD })).statusCode).toBe(
        200,
      );

      const again = await post(null, '/api/auth/register/confirm', { token, password: PASSWORD });
      expect(again.statusCode).toBe(410);
      expect(again.json().error.code).toBe('link_expired');
      const unknown = await post(null, '/api/auth/register/confirm', {
        token: 'x'.repeat(43),
        password: PASSWORD,
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error.code).toBe('invalid_link');
    });

    it('makes the account with the password its owner chooses, on the confirming browser, never the stranger’s', async () => {
      const stranger = await newVisitor(t.app);
      const email = uniqueEmail();
      const strangers = 'a stranger’s own passphrase';
      const asked = await stranger.request({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email, password: strangers },
      });
      expect(asked.statusCode).toBe(202);
      const token = tokenFromMail((await waitForMail(smtp, email)).text, '/register/confirm');

      // The owner opens the mail in their own browser. The button alone makes nothing: the owner
      // chooses the password.
      const owner = await newVisitor(t.app);
      const bare = await post(owner.cookie, '/api/auth/register/confirm', { token });
      expect(bare.statusCode, bare.body).toBe(400);
      expect(await t.database.prisma.user.count({ where: { email } })).toBe(0);
      const preview = await post(owner.cookie, '/api/auth/register/preview', { token });
      expect(preview.json()).toEqual({ email, askToMove: false });
      const confirmed = await post(owner.cookie, '/api/auth/register/confirm', {
        token,
        password: PASSWORD,
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json().user).toMatchObject({ id: owner.userId, email });

      const byStranger = await post(null, '/api/auth/login', { email, password: strangers });
      expect(byStranger.statusCode).toBe(401);
      const byOwner = await post(null, '/api/auth/login', { email, password: PASSWORD });
      expect(byOwner.json().user.id).toBe(owner.userId);
      expect(await stranger.me()).toMatchObject({ id: stranger.userId, email: null });
      const row = await t.database.prisma.user.findUniqueOrThrow({ where: { email } });
      expect(row.id).toBe(owner.userId);
    });

    it('asks before a registration confirmed in another browser takes that browser’s membership', async () => {
      const asker = await newVisitor(t.app);
      const email = uniqueEmail();
      await asker.request({ method: 'POST', url: '/api/auth/register', payload: { email } });
      const token = tokenFromMail((await waitForMail(smtp, email)).text, '/register/confirm');
      const other = await newVisitor(t.app);
      await payEarlyAccess(other);
      expect((await post(other.cookie, '/api/auth/register/preview', { token })).json()).toEqual({
        email,
        askToMove: true,
      });
      const refused = await post(other.cookie, '/api/auth/register/confirm', {
        token,
        password: PASSWORD,
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('membership_here');
      expect(await other.me()).toMatchObject({ email: null, isSubscribed: true });
      const moved = await post(other.cookie, '/api/auth/register/confirm', {
        token,
        password: PASSWORD,
        moveMembership: true,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().user).toMatchObject({ id: other.userId, email, isSubscribed: true });
    });
  });

  describe('what needs a proven address', () => {
    it('keeps an unproven account’s password sign-in, but gives it no desk, no newsletter claim and no comp', async () => {
      const listed = await legacyAccount(LISTED);
      expect((await get(listed.cookie, '/api/desk/me')).statusCode).toBe(404);

      // A newsletter sign-up of the address, made before: not the unproven account's.
      const signUp = await post(null, '/api/newsletter/subscribe', { email: listed.email });
      expect(signUp.statusCode).toBe(202);
      const own = await post(listed.cookie, '/api/newsletter/subscription', { subscribed: true });
      expect(own.statusCode).toBe(403);
      expect(own.json().error.code).toBe('address_unproven');
      const again = await post(listed.cookie, '/api/newsletter/subscribe', {
        email: listed.email,
      });
      expect(again.json().subscribed).toBe(false);
      expect(
        await t.database.prisma.newsletterSubscriber.count({ where: { userId: listed.id } }),
      ).toBe(0);

      // A comp from the owner's desk: refused while the address is unproven.
      const ownerVisitor = await newVisitor(t.app);
      const owner = await registerThroughMail(ownerVisitor.request, smtp, {
        email: OWNER,
        password: PASSWORD,
      });
      const ownerCookie = sessionCookieOf(owner);
      const comp = await post(ownerCookie, `/api/desk/members/${listed.id}/comps`, {
        until: inAMonth,
        reason: 'a thank-you',
      });
      expect(comp.statusCode).toBe(409);
      expect(comp.json().error.code).toBe('address_unproven');

      // Once it uses a link mailed to it, all of it is its own.
      const { token } = await askForSignIn(listed.email, listed.cookie);
      const proven = await post(listed.cookie, '/api/auth/email-link/confirm', { token });
      expect(proven.statusCode).toBe(200);
      const cookie = sessionCookieOf(proven);
      expect((await get(cookie, '/api/desk/me')).statusCode).toBe(200);
      expect(
        await t.database.prisma.newsletterSubscriber.count({ where: { userId: listed.id } }),
      ).toBe(1);
      const granted = await post(ownerCookie, `/api/desk/members/${listed.id}/comps`, {
        until: inAMonth,
        reason: 'a thank-you',
      });
      expect(granted.statusCode, granted.body).toBe(200);
    });

    it('gives neither the desk nor the account to whoever registers a listed address first', async () => {
      const attacker = await newVisitor(t.app);
      const listedEmail = `late${Date.now()}@proven.example`;
      // A fresh app whose STAFF_EMAILS lists an address nobody registered yet.
      const other = await withSite({
        env: { SMTP_URL: smtp.url, STAFF_EMAILS: listedEmail },
      });
      try {
        const visitor = await newVisitor(other.app);
        const response = await visitor.request({
          method: 'POST',
          url: '/api/auth/register',
          payload: { email: listedEmail, password: 'an attacker’s own passphrase' },
        });
        expect(response.statusCode).toBe(202);
        expect(response.cookies).toEqual([]);
        // Nothing the attacker holds opens the desk, or signs in with that address.
        for (const cookie of [visitor.cookie, attacker.cookie]) {
          expect(
            (await other.app.inject({ method: 'GET', url: '/api/desk/me', headers: { cookie } }))
              .statusCode,
          ).toBe(404);
        }
        const signIn = await other.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: listedEmail, password: 'an attacker’s own passphrase' },
        });
        expect(signIn.statusCode).toBe(401);
        // The link went to the address's owner, who alone can finish, with a password of their
        // own, in their own browser (and then opens the desk).
        const token = tokenFromMail(
          (await waitForMail(smtp, listedEmail)).text,
          '/register/confirm',
        );
        const owner = await newVisitor(other.app);
        const confirm = (payload: object) =>
          owner.request({ method: 'POST', url: '/api/auth/register/confirm', payload });
        expect((await confirm({ token })).statusCode).toBe(400);
        const confirmed = await confirm({ token, password: PASSWORD });
        expect(confirmed.statusCode, confirmed.body).toBe(200);
        expect(confirmed.json().user.id).toBe(owner.userId);
        const desk = await other.app.inject({
          method: 'GET',
          url: '/api/desk/me',
          headers: { cookie: sessionCookieOf(confirmed) },
        });
        expect(desk.statusCode).toBe(200);
        expect((await visitor.request({ method: 'GET', url: '/api/desk/me' })).statusCode).toBe(
          404,
        );
        const login = (password: string) =>
          other.app.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: listedEmail, password },
          });
        expect((await login('an attacker’s own passphrase')).statusCode).toBe(401);
        expect((await login(PASSWORD)).json().user.id).toBe(owner.userId);
      } finally {
        await other.close();
      }
    });
  });

  describe('an email change, confirmed', () => {
    it('moves the newsletter to the new address, tells the old one, and the desk follows the new listing', async () => {
      const oldEmail = uniqueEmail();
      // The new address is listed in STAFF_EMAILS.
      const newEmail = `moved${Date.now()}@proven.example`;
      const other = await withSite({
        env: { SMTP_URL: smtp.url, STAFF_EMAILS: newEmail, SITE_URL: 'https://cohort.example' },
      });
      try {
        const member = await newVisitor(other.app);
        const signedUp = await registerThroughMail(member.request, smtp, {
          email: oldEmail,
          password: PASSWORD,
        });
        const memberCookie = sessionCookieOf(signedUp);
        const as = (url: string, payload: object) =>
          other.app.inject({ method: 'POST', url, payload, headers: { cookie: memberCookie } });
        expect((await as('/api/newsletter/subscription', { subscribed: true })).statusCode).toBe(
          200,
        );
        const asked = await as('/api/account/email', { email: newEmail, password: PASSWORD });
        expect(asked.statusCode).toBe(202);
        const mail = await waitForMail(smtp, newEmail);
        const confirmed = await as('/api/account/email/confirm', {
          token: tokenFromMail(mail.text, '/confirm-email'),
        });
        expect(confirmed.statusCode, confirmed.body).toBe(200);

        const subscriber = await other.database.prisma.newsletterSubscriber.findFirstOrThrow({
          where: { userId: member.userId },
        });
        expect(subscriber).toMatchObject({ email: newEmail, state: 'confirmed' });
        const notice = await waitForMail(smtp, oldEmail, 3);
        expect(notice.subject).toBe('Your Cohort email was changed');
        const desk = await other.app.inject({
          method: 'GET',
          url: '/api/desk/me',
          headers: { cookie: memberCookie },
        });
        expect(desk.statusCode, desk.body).toBe(200);
      } finally {
        await other.close();
      }
    });
  });
});
