import { randomUUID } from 'node:crypto';
import { beforeAll, expect } from 'vitest';
import type { FakeStripe } from '#test/fake-stripe';
import { uniqueEmail as uniqueAddress } from '#test/factories';
import { sessionCookieOf, tokenFromMail, waitForMail } from '#test/registration';
import type { SmtpCapture } from '#test/smtp-capture';
import type { Visitor } from '#test/visitor';
import { madeLater } from '#test/made-later';
import { useSite } from '#test/with-site';
import { getPasswordHash } from '../../server/src/accounts/passwords.js';
import { EARLY_ACCESS_OFFER } from '../../contract/constants.js';

// The site the tests of proven addresses (server/src/routes/auth/proven-addresses.test.ts and
// sign-in-by-link.test.ts) run against: the real app with a fake Stripe and a mailbox, two listed
// staff addresses, and the calls and accounts those tests make.

export const PASSWORD = 'correct horse battery';
export const OWNER = 'owner@proven.example';
export const LISTED = 'listed@proven.example';
export const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
export const uniqueEmail = () => uniqueAddress('proven');

/**
 * Starts the site before the calling describe's tests and stops it after them (`useSite`).
 * Everything it answers can be named at once; its app, Stripe and mailbox are made by the
 * describe's first `beforeAll` hooks, and stand in until then (`madeLater`), so the tests use them.
 */
export function useProvenAddressesSite() {
  const t = useSite({
    payments: true,
    mail: true,
    env: {
      SITE_URL: 'https://cohort.example',
      LOGIN_RATE_LIMIT: '1000',
      STAFF_EMAILS: `${OWNER},${LISTED}`,
    },
  });
  const [stripe, makeStripe] = madeLater<FakeStripe>('The fake Stripe');
  const [smtp, makeSmtp] = madeLater<SmtpCapture>('The mailbox');
  beforeAll(() => {
    makeStripe(t.stripe);
    makeSmtp(t.mailbox);
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

  return { stripe, smtp, t, post, get, payEarlyAccess, legacyAccount, askForSignIn };
}
