import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, uniqueEmail } from '#test/factories';
import { registerThroughMail } from '#test/registration';
import { SmtpCapture, type CapturedMail } from '#test/smtp-capture';
import { TEST_SESSION_SECRET } from '#test/test-app';
import { withSite, type Site } from '#test/with-site';
import { newVisitor } from '#test/visitor';
import { createUnsubscribeTokens } from '../../newsletter/tokens.js';
import { CHECK_INBOX_MESSAGE } from './index.js';

describe('newsletter sign-up and unsubscribe', () => {
  let smtp: SmtpCapture;
  let t: Site;

  beforeAll(async () => {
    smtp = await new SmtpCapture().start();
    t = await withSite({
      env: { SMTP_URL: smtp.url, SITE_URL: 'https://cohort.example', NEWSLETTER_RATE_LIMIT: '5' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  let address = 0;
  /** Each sign-up from an address of its own, so the per-IP limit is tested on its own. */
  const signUp = (email: string, remoteAddress = `10.0.0.${(address += 1) % 250}`) =>
    t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      payload: { email },
      remoteAddress,
    });
  const stateOf = async (email: string) =>
    (
      await t.database.prisma.newsletterSubscriber.findUnique({
        where: { email },
        select: { state: true },
      })
    )?.state ?? null;
  async function waitForMails(email: string, count: number): Promise<CapturedMail[]> {
    for (let i = 0; i < 200; i += 1) {
      const mails = smtp.mailsTo(email);
      if (mails.length >= count) return mails;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`${email} received ${smtp.mailsTo(email).length} mails, not ${count}`);
  }
  const tokenIn = (mail: CapturedMail | undefined) =>
    /#token=([\w-]+)/.exec(mail?.text ?? '')?.[1] ?? '';

  it('mails a confirmation link whose page confirms nothing until its button POSTs', async () => {
    const email = uniqueEmail('reader');
    const response = await signUp(email);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ message: CHECK_INBOX_MESSAGE, subscribed: false });
    const [mail] = await waitForMails(email, 1);
    expect(mail?.subject).toBe('Confirm your subscription to the Cohort newsletter');
    expect(mail?.text).toContain('https://cohort.example/newsletter/confirm#token=');
    expect(await stateOf(email)).toBe('pending');

    // The link itself is a page (the token rides in the fragment, which no server sees): opening
    // it, as a mail scanner would, changes nothing.
    const page = await t.app.inject({ method: 'GET', url: '/newsletter/confirm' });
    expect(page.statusCode).not.toBe(500);
    expect(await stateOf(email)).toBe('pending');

    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/confirm',
      payload: { token: tokenIn(mail) },
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().message).toContain(email);
    expect(await stateOf(email)).toBe('confirmed');

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/confirm',
      payload: { token: tokenIn(mail) },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('invalid_token');
  });

  it('answers a repeated sign-up exactly as a new one, and mails the owner a reminder instead', async () => {
    const email = uniqueEmail('reader');
    const fresh = await signUp(uniqueEmail('reader'));
    const first = await signUp(email);
    const [mail] = await waitForMails(email, 1);
    await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/confirm',
      payload: { token: tokenIn(mail) },
    });
    // Ten minutes on, so the per-address pause is over.
    await t.database.prisma.newsletterSubscriber.update({
      where: { email },
      data: { confirmMailedAt: new Date(Date.now() - 11 * 60_000) },
    });
    const repeated = await signUp(email.toUpperCase());
    expect([fresh.statusCode, first.statusCode, repeated.statusCode]).toEqual([202, 202, 202]);
    expect(repeated.body).toBe(first.body);
    expect(repeated.body).toBe(fresh.body);
    const mails = await waitForMails(email, 2);
    expect(mails[1]?.subject).toBe('You are already on the Cohort newsletter');
    expect(mails[1]?.text).not.toContain('#token=');
    expect(await stateOf(email)).toBe('confirmed');

    // At once again: same answer, and no mail (one per address per 10 minutes).
    const third = await signUp(email);
    expect(third.body).toBe(first.body);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.mailsTo(email)).toHaveLength(2);
  });

  it('limits sign-ups per client IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await signUp(uniqueEmail('reader'), '10.9.9.9')).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('refuses an address that is not one, without writing anything', async () => {
    const response = await signUp('not an address');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_email');
    expect(
      await t.database.prisma.newsletterSubscriber.count({ where: { email: 'not an address' } }),
    ).toBe(0);
  });

  it('forgets sign-ups left unconfirmed for 7 days: their link no longer works', async () => {
    const email = uniqueEmail('reader');
    await signUp(email);
    const [mail] = await waitForMails(email, 1);
    await t.database.prisma.newsletterSubscriber.update({
      where: { email },
      data: { confirmExpiresAt: new Date(Date.now() - 1000) },
    });
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/confirm',
      payload: { token: tokenIn(mail) },
    });
    expect(confirm.statusCode).toBe(400);
    await signUp(uniqueEmail('reader')); // any sign-up sweeps the expired ones
    expect(await stateOf(email)).toBeNull();
  });

  it('subscribes a registered user’s own address at once, linked to the user, and /account switches it', async () => {
    const email = uniqueEmail('reader');
    const member = await buildMember(t, { email });
    const headers = { cookie: member.cookie };
    const before = await t.app.inject({
      method: 'GET',
      url: '/api/newsletter/subscription',
      headers,
    });
    expect(before.json()).toEqual({ email, subscribed: false, pending: false });

    const response = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      payload: { email },
      headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().subscribed).toBe(true);
    const row = await t.database.prisma.newsletterSubscriber.findUnique({ where: { email } });
    expect(row).toMatchObject({ state: 'confirmed', userId: member.userId });
    // No confirmation link for one's own address.
    expect(smtp.mailsTo(email)).toHaveLength(0);

    const off = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscription',
      payload: { subscribed: false },
      headers,
    });
    expect(off.json()).toEqual({ email, subscribed: false, pending: false });
    expect(await stateOf(email)).toBe('unsubscribed');
    const on = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscription',
      payload: { subscribed: true },
      headers,
    });
    expect(on.json()).toEqual({ email, subscribed: true, pending: false });
  });

  it('makes an address’s earlier sign-up the account’s when that address registers', async () => {
    const email = uniqueEmail('reader');
    expect((await signUp(email)).statusCode).toBe(202);
    const [mail] = await waitForMails(email, 1);
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/confirm',
      payload: { token: tokenIn(mail) },
    });
    expect(confirmed.statusCode).toBe(200);

    const visitor = await newVisitor(t.app);
    // Registering asks nothing of the sign-up; finishing it by the mailed link proves the address.
    const registered = await registerThroughMail(visitor.request, smtp, {
      email,
      password: 'correct horse battery',
    });
    expect(registered.statusCode).toBe(200);
    const row = await t.database.prisma.newsletterSubscriber.findUnique({ where: { email } });
    expect(row).toMatchObject({ state: 'confirmed', userId: visitor.userId });
  });

  it('unsubscribes by the RFC 8058 one-click POST, without a session, and resubscribes from the page', async () => {
    const email = uniqueEmail('reader');
    await signUp(email);
    const [mail] = await waitForMails(email, 1);
    await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/confirm',
      payload: { token: tokenIn(mail) },
    });
    const subscriber = await t.database.prisma.newsletterSubscriber.findUniqueOrThrow({
      where: { email },
    });
    const token = createUnsubscribeTokens(TEST_SESSION_SECRET).sign(subscriber.id);

    // What a mail provider sends (RFC 8058 section 3.2): a form body, no cookie, no Origin.
    const url = `/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
    const oneClick = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(await stateOf(email)).toBe('unsubscribed');
    // Again: still fine, nothing changes.
    expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(200);

    // A GET of that address only leads to the page, which POSTs.
    const opened = await t.app.inject({ method: 'GET', url });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(
      `/newsletter/unsubscribe#token=${encodeURIComponent(token)}`,
    );

    const back = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/resubscribe',
      payload: { token },
    });
    expect(back.statusCode).toBe(200);
    expect(await stateOf(email)).toBe('confirmed');

    const forged = `${subscriber.id}.${'A'.repeat(24)}`;
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/newsletter/unsubscribe?token=${encodeURIComponent(forged)}`,
    });
    expect(refused.statusCode).toBe(400);
    expect(await stateOf(email)).toBe('confirmed');
  });
});
