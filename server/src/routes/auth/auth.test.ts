import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '#test/factories';
import { askToRegister, registerThroughMail, tokenFromMail, waitForMail } from '#test/registration';
import { newVisitor, type Visitor } from '#test/visitor';
import { withSite, type Site } from '#test/with-site';
import { SESSION_COOKIE } from '../../plugins/app/sessions.js';
import { EARLY_ACCESS_OFFER } from '../../../../contract/constants.js';
import { REGISTRATION_MESSAGE, RESET_REQUESTED_MESSAGE } from './index.js';

const PASSWORD = 'correct horse battery';

describe('accounts', () => {
  let t: Site;

  beforeAll(async () => {
    t = await withSite({
      payments: true,
      mail: true,
      env: { SITE_URL: 'https://cohort.example', LOGIN_RATE_LIMIT: '1000' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (visitor: Visitor | null, url: string, payload: object, remoteAddress?: string) =>
    visitor
      ? visitor.request({ method: 'POST', url, payload, ...(remoteAddress && { remoteAddress }) })
      : t.app.inject({ method: 'POST', url, payload, ...(remoteAddress && { remoteAddress }) });
  const cookieOf = (response: { cookies: { name: string; value: string }[] }) => {
    const value = response.cookies.find((c) => c.name === SESSION_COOKIE)?.value;
    return value ? `${SESSION_COOKIE}=${value}` : undefined;
  };
  const meWith = (cookie: string | undefined) =>
    t.app.inject({ method: 'GET', url: '/api/me', headers: cookie ? { cookie } : {} });
  const payEarlyAccess = async (visitor: Visitor) => {
    const event = t.stripe.event(
      'payment_intent.succeeded',
      t.stripe.paidPaymentIntent({ userId: visitor.userId, offer: EARLY_ACCESS_OFFER }),
    );
    const { payload, headers } = t.stripe.signedDelivery(event);
    await t.app.inject({ method: 'POST', url: '/webhooks/stripe', payload, headers });
  };
  /** Registers through the mail: the link's token, taken from the captured mail, confirmed. */
  const register = (visitor: Visitor, email: string, password = PASSWORD) =>
    registerThroughMail(visitor.request, t.mailbox, { email, password });
  async function registered(email = uniqueEmail('member')) {
    const visitor = await newVisitor(t.app);
    const response = await register(visitor, email);
    expect(response.statusCode).toBe(200);
    return { email, userId: visitor.userId, cookie: cookieOf(response) ?? '' };
  }
  const signIn = (email: string, password = PASSWORD, cookie?: string, remoteAddress?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      ...(cookie && { headers: { cookie } }),
      ...(remoteAddress && { remoteAddress }),
    });

  describe('registering', () => {
    it('attaches a normalised email and a password to the visitor’s own user, keeping a paid membership', async () => {
      const visitor = await newVisitor(t.app);
      await payEarlyAccess(visitor);
      const email = uniqueEmail('member');

      const asked = await post(visitor, '/api/auth/register', {
        email: `  ${email.toUpperCase()} `,
      });
      expect(asked.statusCode).toBe(202);
      expect(asked.json()).toEqual({ message: REGISTRATION_MESSAGE });
      // Nothing is tied to the address until the mailed link is used.
      expect(await t.database.prisma.user.count({ where: { email } })).toBe(0);
      const mail = await waitForMail(t.mailbox, email);
      expect(mail.text).toContain('https://cohort.example/register/confirm#token=');
      const response = await post(visitor, '/api/auth/register/confirm', {
        token: tokenFromMail(mail.text, '/register/confirm'),
        password: PASSWORD,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ id: visitor.userId, email, isSubscribed: true });

      const row = await t.database.prisma.user.findUniqueOrThrow({ where: { id: visitor.userId } });
      expect(row.email).toBe(email);
      expect(row.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
      expect(row.passwordHash).not.toContain(PASSWORD);

      // The anonymous token is done; the new cookie carries on as the same user.
      expect((await meWith(visitor.cookie)).statusCode).toBe(401);
      expect((await meWith(cookieOf(response))).json().user.id).toBe(visitor.userId);
    });

    it.each([
      ['an invalid email', { email: 'not-an-email' }, 'invalid_email'],
      ['extra fields', { email: 'x@example.com', admin: true }, 'invalid_request'],
    ])(
      'refuses to register %s with a clear message and writes nothing',
      async (_name, payload, code) => {
        const visitor = await newVisitor(t.app);
        const rows = await t.database.prisma.emailSignIn.count();
        const response = await post(visitor, '/api/auth/register', payload);
        expect(response.statusCode).toBe(400);
        expect(response.json().error.code).toBe(code);
        expect(response.json().error.message).toBeTruthy();
        expect(await t.database.prisma.emailSignIn.count()).toBe(rows);
      },
    );

    it.each([
      ['a short password', { password: 'abc123' }, 'weak_password', 'Use at least 10 characters.'],
      ['a common password', { password: 'password123' }, 'weak_password', 'too easy to guess'],
      ['a missing password', {}, 'invalid_request', 'password'],
      ['extra fields', { password: PASSWORD, admin: true }, 'invalid_request', 'additional'],
    ])(
      'refuses to finish a registration with %s, says why, and keeps the link working',
      async (_name, fields, code, message) => {
        const visitor = await newVisitor(t.app);
        const email = uniqueEmail('member');
        const token = await askToRegister(visitor.request, t.mailbox, email);
        const response = await post(visitor, '/api/auth/register/confirm', { token, ...fields });
        expect(response.statusCode).toBe(400);
        expect(response.json().error.code).toBe(code);
        expect(response.json().error.message).toContain(message);
        expect(await t.database.prisma.user.count({ where: { email } })).toBe(0);
        const finished = await post(visitor, '/api/auth/register/confirm', {
          token,
          password: PASSWORD,
        });
        expect(finished.statusCode).toBe(200);
      },
    );

    it('answers 409 to a visitor who already has an account', async () => {
      const account = await registered();
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: uniqueEmail('member'), password: PASSWORD },
        headers: { cookie: account.cookie },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('already_registered');
    });
  });

  describe('signing in', () => {
    it('restores the account on another device', async () => {
      const account = await registered();
      const response = await signIn(account.email.toUpperCase());
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ id: account.userId, email: account.email });
      expect((await meWith(cookieOf(response))).json().user.id).toBe(account.userId);
    });

    it('gives the same answer for an unknown email and a wrong password', async () => {
      const account = await registered();
      const wrong = await signIn(account.email, 'wrong password here');
      const unknown = await signIn(uniqueEmail('member'), 'wrong password here');
      for (const response of [wrong, unknown]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({
          error: {
            code: 'invalid_credentials',
            message: 'That email and password do not match an account.',
          },
        });
        expect(cookieOf(response)).toBeUndefined();
      }
    });

    it('takes about as long to refuse an unknown email as a wrong password', async () => {
      const account = await registered();
      const time = async (email: string) => {
        const started = performance.now();
        await signIn(email, 'wrong password here');
        return performance.now() - started;
      };
      await time(account.email); // warm-up
      const wrong: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        wrong.push(await time(account.email));
        unknown.push(await time(uniqueEmail('member')));
      }
      const median = (values: number[]) => values.sort((a, b) => a - b)[2] ?? 0;
      // Without the decoy hash an unknown email would answer ~50x faster (no scrypt at all).
      expect(median(unknown) / median(wrong)).toBeGreaterThan(0.5);
      expect(median(unknown) / median(wrong)).toBeLessThan(2);
    });

    it('moves an anonymous membership to an account that has none', async () => {
      const account = await registered();
      const device = await newVisitor(t.app);
      await payEarlyAccess(device);

      const response = await signIn(account.email, PASSWORD, device.cookie);
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ id: account.userId, isSubscribed: true });
      expect(await t.database.prisma.membership.count({ where: { userId: device.userId } })).toBe(
        0,
      );
      expect(await t.database.prisma.entitlement.count({ where: { userId: account.userId } })).toBe(
        1,
      );
    });

    it('adds an anonymous visitor’s paid year to the account’s own: no paid time is lost', async () => {
      const visitor = await newVisitor(t.app);
      await payEarlyAccess(visitor);
      const email = uniqueEmail('member');
      await register(visitor, email);
      const device = await newVisitor(t.app);
      await payEarlyAccess(device);

      const response = await signIn(email, PASSWORD, device.cookie);
      const expiresAt = Date.parse(response.json().user.membership.expiresAt);
      expect(expiresAt - Date.now()).toBeGreaterThan(2 * 364 * 24 * 3600 * 1000);
      expect(await t.database.prisma.membership.count({ where: { userId: device.userId } })).toBe(
        0,
      );
      expect(await t.database.prisma.entitlement.count({ where: { userId: visitor.userId } })).toBe(
        2,
      );
    });

    it('signing out starts a fresh anonymous session without the membership', async () => {
      const visitor = await newVisitor(t.app);
      await payEarlyAccess(visitor);
      const email = uniqueEmail('member');
      const registration = await register(visitor, email);
      const cookie = cookieOf(registration) ?? '';

      const out = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { cookie },
      });
      expect(out.statusCode).toBe(200);
      expect(out.json().user).toMatchObject({ email: null, isSubscribed: false });
      expect(out.json().user.id).not.toBe(visitor.userId);

      const back = await signIn(email, PASSWORD, cookieOf(out));
      expect(back.json().user).toMatchObject({ id: visitor.userId, isSubscribed: true });
    });
  });

  describe('password reset', () => {
    const requestReset = (email: string) => post(null, '/api/auth/password-reset', { email });
    async function resetLinkFor(email: string) {
      const resetMails = () =>
        t.mailbox.mailsTo(email).filter((m) => m.text.includes('/reset-password#'));
      await expect.poll(() => resetMails().length, { timeout: 5000 }).toBeGreaterThan(0);
      const mail = resetMails().at(-1);
      const link = mail?.text.match(/https:\/\/cohort\.example\/reset-password#token=[\w-]+/)?.[0];
      if (!link) throw new Error(`no link in: ${mail?.text}`);
      return { mail, token: new URLSearchParams(new URL(link).hash.slice(1)).get('token') ?? '' };
    }
    const confirm = (token: string, password: string) =>
      post(null, '/api/auth/password-reset/confirm', { token, password });

    it('mails a single-use link that only a submitted form can use, and stores only its hash', async () => {
      const account = await registered();
      const response = await requestReset(account.email);
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ message: RESET_REQUESTED_MESSAGE });

      const { mail, token } = await resetLinkFor(account.email);
      expect(mail?.subject).toBe('Reset your Cohort password');
      const stored = await t.database.prisma.passwordReset.findFirstOrThrow({
        where: { userId: account.userId },
      });
      expect(stored.tokenHash).not.toBe(token);
      expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);

      // A mail scanner following the link loads a page; nothing changes until the form is sent.
      const page = await t.app.inject({ method: 'GET', url: `/reset-password` });
      expect(page.statusCode).toBeLessThan(500);
      expect((await signIn(account.email)).statusCode).toBe(200);

      const newPassword = 'a brand new passphrase';
      const reset = await confirm(token, newPassword);
      expect(reset.statusCode).toBe(200);
      expect(reset.json().user.id).toBe(account.userId);
      expect((await meWith(account.cookie)).statusCode).toBe(401); // every other session ended
      expect((await signIn(account.email)).statusCode).toBe(401);
      expect((await signIn(account.email, newPassword)).statusCode).toBe(200);

      const again = await confirm(token, 'yet another passphrase');
      expect(again.statusCode).toBe(400);
      expect(again.json().error.code).toBe('invalid_reset_link');
    });

    it('answers the same for an unknown email and sends nothing', async () => {
      const email = uniqueEmail('member');
      const response = await requestReset(email);
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ message: RESET_REQUESTED_MESSAGE });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(t.mailbox.mailsTo(email)).toEqual([]);
    });

    it('refuses a link older than an hour', async () => {
      const account = await registered();
      await requestReset(account.email);
      const { token } = await resetLinkFor(account.email);
      await t.database.prisma.passwordReset.updateMany({
        where: { userId: account.userId },
        data: { expiresAt: new Date(Date.now() - 1000) },
      });
      expect((await confirm(token, 'a brand new passphrase')).statusCode).toBe(400);
    });

    it('refuses a weak new password without using up the link', async () => {
      const account = await registered();
      await requestReset(account.email);
      const { token } = await resetLinkFor(account.email);
      expect((await confirm(token, 'short')).json().error.code).toBe('weak_password');
      expect((await confirm(token, 'a brand new passphrase')).statusCode).toBe(200);
    });
  });

  it('changing the password keeps this session and ends the others', async () => {
    const account = await registered();
    const otherDevice = cookieOf(await signIn(account.email)) ?? '';
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password',
      payload: { currentPassword: PASSWORD, newPassword: 'another good passphrase' },
      headers: { cookie: account.cookie },
    });
    expect(response.statusCode).toBe(200);
    expect((await meWith(cookieOf(response))).statusCode).toBe(200);
    expect((await meWith(otherDevice)).statusCode).toBe(401);
  });

  describe('the account', () => {
    async function subscribedAccount() {
      const visitor = await newVisitor(t.app);
      const checkout = await visitor.request({ method: 'POST', url: '/api/checkout' });
      const id = new URL(checkout.json().url).pathname.split('/').pop() ?? '';
      const { subscription } = t.stripe.completeCheckout(id);
      await visitor.request({ method: 'GET', url: `/api/checkout/${id}` });
      const email = uniqueEmail('member');
      const registration = await register(visitor, email);
      return { userId: visitor.userId, email, cookie: cookieOf(registration) ?? '', subscription };
    }
    const asAccount = (cookie: string, url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, payload, headers: { cookie } });

    it('changes the email only once the link mailed to the new address is confirmed, tells the old one, and pushes it to the Stripe customer', async () => {
      const account = await subscribedAccount();
      const newEmail = uniqueEmail('member');
      const response = await asAccount(account.cookie, '/api/account/email', {
        email: newEmail,
        password: PASSWORD,
      });
      expect(response.statusCode).toBe(202);
      expect(response.json().message).toContain(newEmail);
      // Nothing changed yet.
      expect((await meWith(account.cookie)).json().user.email).toBe(account.email);

      await expect.poll(() => t.mailbox.mailsTo(newEmail).length, { timeout: 5000 }).toBe(1);
      // The first mail to the old address finished its registration; the second tells of this.
      await expect.poll(() => t.mailbox.mailsTo(account.email).length, { timeout: 5000 }).toBe(2);
      expect(t.mailbox.mailsTo(account.email)[1]?.text).toContain(
        `change its email to ${newEmail}`,
      );
      const link = t.mailbox
        .mailsTo(newEmail)[0]
        ?.text.match(/https:\/\/cohort\.example\/confirm-email#token=[\w-]+/)?.[0];
      if (!link) throw new Error('no confirmation link');
      const token = new URL(link).hash.replace('#token=', '');
      // Only the token's hash is stored.
      const stored = await t.database.prisma.emailChange.findFirstOrThrow({
        where: { userId: account.userId },
      });
      expect(stored.tokenHash).not.toContain(token);

      const confirmed = await post(null, '/api/account/email/confirm', { token });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json().message).toBe(`Your email is now ${newEmail}.`);
      expect(t.stripe.get(String(account.subscription.customer)).email).toBe(newEmail);
      expect((await signIn(newEmail)).statusCode).toBe(200);
      // The old address hears that the change was made.
      const notice = await waitForMail(t.mailbox, account.email, 3);
      expect(notice.subject).toBe('Your Cohort email was changed');
      expect(notice.text).toContain(newEmail);
      // The link works once.
      expect((await post(null, '/api/account/email/confirm', { token })).statusCode).toBe(400);
    });

    it('answers an email change to a taken address as any other, and mails that address nothing', async () => {
      const account = await registered();
      const other = await registered();
      const response = await asAccount(account.cookie, '/api/account/email', {
        email: other.email,
        password: PASSWORD,
      });
      expect(response.statusCode).toBe(202);
      // Each address had its registration mail; only the account's own hears of the request.
      await expect.poll(() => t.mailbox.mailsTo(account.email).length, { timeout: 5000 }).toBe(2);
      expect(t.mailbox.mailsTo(other.email)).toHaveLength(1);
    });

    it('deletes the account after cancelling its subscription at Stripe, and ends the session', async () => {
      const account = await subscribedAccount();
      const response = await asAccount(account.cookie, '/api/account/delete', {
        password: PASSWORD,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ email: null, isSubscribed: false });
      expect(t.stripe.get(account.subscription.id).status).toBe('canceled');
      expect(await t.database.prisma.user.findUnique({ where: { id: account.userId } })).toBeNull();
      expect(await t.database.prisma.membership.count({ where: { userId: account.userId } })).toBe(
        0,
      );
      expect((await meWith(account.cookie)).statusCode).toBe(401);
      expect((await signIn(account.email)).statusCode).toBe(401);
    });

    it('deletes nothing with a wrong password, or when Stripe cannot cancel the subscription', async () => {
      const account = await subscribedAccount();
      const wrong = await asAccount(account.cookie, '/api/account/delete', {
        password: 'not my password',
      });
      expect(wrong.statusCode).toBe(403);

      t.stripe.failNext(2, 500);
      const failed = await asAccount(account.cookie, '/api/account/delete', { password: PASSWORD });
      expect(failed.statusCode).toBe(502);
      expect(await t.database.prisma.user.count({ where: { id: account.userId } })).toBe(1);
      expect(t.stripe.get(account.subscription.id).status).toBe('active');
    });
  });
});

describe('sign-in rate limits', () => {
  let t: Site;
  beforeAll(async () => {
    t = await withSite({ env: { LOGIN_RATE_LIMIT: '3' } });
  });
  afterAll(() => t?.close());

  const attempt = (email: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'guessing password' },
      remoteAddress: ip,
    });

  it('limits attempts per client IP', async () => {
    for (let i = 0; i < 3; i += 1)
      expect((await attempt(`a${i}@example.com`, '198.51.100.10')).statusCode).toBe(401);
    const limited = await attempt('a9@example.com', '198.51.100.10');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  // Per email and per (email, address): server/src/accounts/sign-in-throttle.test.ts.
});
