import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerThroughMail, tokenFromMail, waitForMail } from '#test/registration';
import { SmtpCapture } from '#test/smtp-capture';
import { withSite, type Site } from '#test/with-site';
import { newVisitor } from '#test/visitor';

describe('secrets in the log', () => {
  let smtp: SmtpCapture;
  let t: Site;

  beforeAll(async () => {
    smtp = await new SmtpCapture().start();
    t = await withSite({
      captureLogs: true,
      // Every line the app writes, request logs included.
      env: { LOG_LEVEL: 'trace', SMTP_URL: smtp.url, SITE_URL: 'https://cohort.example' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('no reset, registration or sign-in token or code appears in any log line, however the link is opened or used', async () => {
    const email = `logs${Date.now()}@example.com`;
    const visitor = await newVisitor(t.app);
    const registered = await registerThroughMail(visitor.request, smtp, {
      email,
      password: 'correct horse battery',
    });
    expect(registered.statusCode).toBe(200);
    const registrationToken = tokenFromMail(
      smtp.mailsTo(email)[0]?.text ?? '',
      '/register/confirm',
    );

    await t.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email } });
    await expect.poll(() => smtp.mailsTo(email).length, { timeout: 5000 }).toBe(2);
    const link = /https:\/\/\S+/.exec(smtp.mailsTo(email)[1]?.text ?? '')?.[0] ?? '';
    // The token rides in the fragment, which browsers never send.
    expect(link).toMatch(/^https:\/\/cohort\.example\/reset-password#token=[\w-]{20,}$/);
    const token = new URLSearchParams(new URL(link).hash.slice(1)).get('token') ?? '';

    // A link from before the fragment, opened anyway; a wrong use; the real use.
    await t.app.inject({ method: 'GET', url: `/reset-password?token=${token}` });
    await t.app.inject({ method: 'GET', url: `/api/me?token=${token}` });
    const weak = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token, password: 'short' },
    });
    expect(weak.statusCode).toBe(400);
    const used = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token, password: 'a brand new passphrase' },
    });
    expect(used.statusCode).toBe(200);

    // A sign-in link and its code, opened by a scanner, then used.
    await t.app.inject({ method: 'POST', url: '/api/auth/email-link', payload: { email } });
    const signInMail = await waitForMail(smtp, email, 3);
    const signInToken = tokenFromMail(signInMail.text, '/sign-in/link');
    const code = /asked for it: (\d{6})/.exec(signInMail.text)?.[1] ?? '';
    await t.app.inject({ method: 'GET', url: `/sign-in/link?token=${signInToken}` });
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-link/confirm',
      payload: { token: signInToken },
    });
    expect(signedIn.statusCode).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/email-code/confirm',
      payload: { email, code },
    });

    const lines = t.logs().map((line) => JSON.stringify(line));
    expect(lines.some((line) => line.includes('"url":"/reset-password?[redacted]"'))).toBe(true);
    expect(lines.some((line) => line.includes('/api/auth/password-reset/confirm'))).toBe(true);
    for (const secret of [token, registrationToken, signInToken]) {
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
    }
    // Six digits may turn up in any timestamp: the code is looked for as a value of its own.
    expect(lines.filter((line) => line.includes(`"${code}"`))).toEqual([]);
  });
});
