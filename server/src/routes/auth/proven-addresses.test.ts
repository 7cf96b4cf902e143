import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '#test/fake-stripe';
import {
  registerThroughMail,
  sessionCookieOf,
  tokenFromMail,
  waitForMail,
} from '#test/registration';
import { SmtpCapture } from '#test/smtp-capture';
import { createTestApp, type TestApp } from '#test/test-app';
import { newVisitor, type Visitor } from '#test/visitor';
import { getPasswordHash } from '../../accounts/passwords.js';
import { EARLY_ACCESS_OFFER } from '../../../../contract/constants.js';

const PASSWORD = 'correct horse battery';
const OWNER = 'owner@proven.example';
const LISTED = 'listed@proven.example';
let counter = 0;
const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const uniqueEmail = () => `proven${Date.now()}${(counter += 1)}@example.com`;

describe('proven addresses', () => {
  let stripe: FakeStripe;
  let smtp: SmtpCapture;
  let t: TestApp;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    smtp = await new SmtpCapture().start();
    t = await createTestApp({
      env: {
        ...stripe.env(),
        SMTP_URL: smtp.url,
        SITE_URL: 'https://cohort.example',
        LOGIN_RATE_LIMIT: '1000',
        STAFF_EMAILS: `${OWNER},${LISTED}`,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
    await stripe?.stop();
  });

  const post = (cookie: string | null, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
  const get = (cookie: string | null, url: string) =>
    t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const payEarlyAccess = async (visitor: Visitor) => {
    const event = stripe.event(
      'payment_intent.succeeded',
      stripe.paidPaymentIntent({ userId: visitor.userId, offer: EARLY_ACCESS_OFFER }),
    );
    const { payload, headers } = stripe.signedDelivery(event);
    await t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers });
  };
  /** An account from before addresses were proven: an address and a password, never proven. */
  async function legacyAccount(email = uniqueEmail()) {
    const id = randomUUID();
    await t.database.prisma.user.create({
      data: { id, email, passwordHash: await getPasswordHash(PASSWORD), sessionVersion: 1 },
    });
    const signedIn = await post(null, '/api/auth/login', { email, password: PASSWORD });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    return { id, email, cookie: sessionCookieOf(signedIn) };
  }
  /** Asks for a sign-in mail and reads its link's token and its code. */
  async function askForSignIn(email: string, cookie: string | null = null) {
    const before = smtp.mailsTo(email).length;
    const asked = await post(cookie, '/api/auth/email-link', { email });
    expect(asked.statusCode, asked.body).toBe(202);
    const mail = await waitForMail(smtp, email, before + 1);
    const code = /asked for it: (\d{6})/.exec(mail.text)?.[1] ?? '';
    return { token: tokenFromMail(mail.text, '/sign-in/link'), code, mail };
  }

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
      const other = await createTestApp({
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
      const other = await createTestApp({
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
