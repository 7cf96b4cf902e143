import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, uniqueEmail } from '#test/factories';
import { sessionCookieOf, waitForMail } from '#test/registration';
import { SmtpCapture } from '#test/smtp-capture';
import { withSite, type Site } from '#test/with-site';
import { newVisitor } from '#test/visitor';

// Changing the address or the password, or deleting the account, needs proof that the owner is
// here: the current password, or a sign-in by link, code or passkey within the last 12 hours (the
// desk's rule). An account made by a link has no password: without this it could change nothing.

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';

describe('account changes after a recent sign-in', () => {
  let t: Site;
  let smtp: SmtpCapture;

  beforeAll(async () => {
    smtp = await new SmtpCapture().start();
    t = await withSite({ env: { LOGIN_RATE_LIMIT: '1000', SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  const as = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });
  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

  /** An account made by a sign-in link (so without a password), signed in by that link. */
  const linkAccount = () => buildMember(t, { email: uniqueEmail('recent'), method: 'link' });
  /** The session signed in `hours` ago. */
  const signedInHoursAgo = (userId: string, hours: number) =>
    t.database.pool.query(
      `UPDATE sessions SET "signedInAt" = now() - make_interval(hours => $2) WHERE "userId" = $1`,
      [userId, hours],
    );

  it('lets an account made by a link set a password, change its address and delete itself without one, within 12 hours', async () => {
    const account = await linkAccount();
    const newEmail = uniqueEmail('recent');
    const email = await as(account.cookie, 'POST', '/api/account/email', { email: newEmail });
    expect(email.statusCode, email.body).toBe(202);
    await waitForMail(smtp, newEmail);

    // What /account reads to leave out the current-password field.
    const state = await as(account.cookie, 'GET', '/api/account/recent-sign-in');
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json().hasPassword).toBe(false);
    const until = Date.parse(state.json().recentSignInUntil);
    expect(until - Date.now()).toBeGreaterThan(11.9 * 3_600_000);
    expect(until - Date.now()).toBeLessThanOrEqual(12 * 3_600_000);

    const password = await as(account.cookie, 'POST', '/api/auth/password', {
      newPassword: NEW_PASSWORD,
    });
    expect(password.statusCode, password.body).toBe(200);
    expect((await login(account.email, NEW_PASSWORD)).statusCode).toBe(200);
    const cookie = sessionCookieOf(password);

    const deleted = await as(cookie, 'POST', '/api/account/delete', {});
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await t.database.prisma.user.count({ where: { id: account.userId } })).toBe(0);
  });

  it('asks for a new sign-in after 12 hours, and changes nothing', async () => {
    const account = await linkAccount();
    await signedInHoursAgo(account.userId, 13);
    for (const [url, payload] of [
      ['/api/account/email', { email: uniqueEmail('recent') }],
      ['/api/auth/password', { newPassword: NEW_PASSWORD }],
      ['/api/account/delete', {}],
    ] as const) {
      const response = await as(account.cookie, 'POST', url, payload);
      expect({ url, status: response.statusCode }).toEqual({ url, status: 403 });
      expect(response.json().error.code).toBe('sign_in_again');
      expect(response.json().error.message).toMatch(/link/);
    }
    const row = await t.database.prisma.user.findUniqueOrThrow({ where: { id: account.userId } });
    expect(row).toMatchObject({ email: account.email, passwordHash: null });
    expect(await t.database.prisma.emailChange.count({ where: { userId: account.userId } })).toBe(
      0,
    );
    const state = await as(account.cookie, 'GET', '/api/account/recent-sign-in');
    expect(state.json()).toEqual({ hasPassword: false, recentSignInUntil: null });
  });

  it('takes a sign-in by code as a link’s, and still needs the password of a password sign-in', async () => {
    const account = await linkAccount();
    expect(
      (await as(account.cookie, 'POST', '/api/auth/password', { newPassword: PASSWORD }))
        .statusCode,
    ).toBe(200);

    // Signed in with a mailed code: no password needed.
    const device = await newVisitor(t.app);
    await device.request({
      method: 'POST',
      url: '/api/auth/email-link',
      payload: { email: account.email },
    });
    const mail = await waitForMail(smtp, account.email);
    const code = /asked for it: (\d{6})/.exec(mail.text)?.[1] ?? '';
    const byCode = await device.request({
      method: 'POST',
      url: '/api/auth/email-code/confirm',
      payload: { email: account.email, code },
    });
    expect(byCode.statusCode, byCode.body).toBe(200);
    const changed = await as(sessionCookieOf(byCode), 'POST', '/api/auth/password', {
      newPassword: NEW_PASSWORD,
    });
    expect(changed.statusCode, changed.body).toBe(200);

    // Signed in with the password: the password it is, however recent.
    const byPassword = sessionCookieOf(await login(account.email, NEW_PASSWORD));
    expect((await as(byPassword, 'GET', '/api/account/recent-sign-in')).json()).toEqual({
      hasPassword: true,
      recentSignInUntil: null,
    });
    const bare = await as(byPassword, 'POST', '/api/account/delete', {});
    expect(bare.statusCode).toBe(403);
    expect(bare.json().error.code).toBe('password_required');
    const wrong = await as(byPassword, 'POST', '/api/account/email', {
      email: uniqueEmail('recent'),
      password: 'not the password at all',
    });
    expect(wrong.json().error.code).toBe('wrong_password');
    const right = await as(byPassword, 'POST', '/api/account/email', {
      email: uniqueEmail('recent'),
      password: NEW_PASSWORD,
    });
    expect(right.statusCode, right.body).toBe(202);
  });
});
