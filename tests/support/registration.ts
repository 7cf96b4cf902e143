import type { LightMyRequestResponse } from 'fastify';
import type { SmtpCapture } from './smtp-capture.js';
import { SESSION_COOKIE } from '../../server/src/plugins/app/sessions.js';
import { normalizeEmail } from '../../contract/account-rules.js';

/** The token a mail's link carries in its fragment (`#token=…`) to `page`. */
export function tokenFromMail(text: string, page: string): string {
  const match = new RegExp(`${page.replace(/\//g, '\\/')}#token=([A-Za-z0-9_-]+)`).exec(text);
  if (!match?.[1]) throw new Error(`No ${page} link in the mail:\n${text}`);
  return match[1];
}

/** Waits for the `n`th mail to an address (mail is sent off the request path). */
export async function waitForMail(
  mailbox: SmtpCapture,
  to: string,
  n = 1,
  timeoutMs = 5_000,
): Promise<{ subject: string; text: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = mailbox.mailsTo(to)[n - 1];
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`No mail #${n} to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Inject = (options: {
  method: 'POST';
  url: string;
  payload: object;
}) => Promise<LightMyRequestResponse>;

/**
 * Asks to register as the /register page does (POST /api/auth/register, 202) and answers the token
 * of the link mailed to the address, as the SMTP capture received it.
 */
export async function askToRegister(
  request: Inject,
  mailbox: SmtpCapture,
  address: string,
): Promise<string> {
  const email = normalizeEmail(address);
  const before = mailbox.mailsTo(email).length;
  const registered = await request({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email: address },
  });
  if (registered.statusCode !== 202) {
    throw new Error(`register: ${registered.statusCode} ${registered.body}`);
  }
  const mail = await waitForMail(mailbox, email, before + 1);
  return tokenFromMail(mail.text, '/register/confirm');
}

/**
 * Registers as a visitor does: asks (POST /api/auth/register), then, in the same browser, chooses
 * the password on the page the mailed link opens and presses its button. Answers the
 * confirmation's response (200 `{user}` and the new session cookie, or the password's 400).
 */
export async function registerThroughMail(
  request: Inject,
  mailbox: SmtpCapture,
  account: { email: string; password: string },
): Promise<LightMyRequestResponse> {
  const token = await askToRegister(request, mailbox, account.email);
  return request({
    method: 'POST',
    url: '/api/auth/register/confirm',
    payload: { token, password: account.password },
  });
}

/** The `cookie` header value for the session a response set. */
export function sessionCookieOf(response: LightMyRequestResponse): string {
  const token = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;
  if (!token) throw new Error(`No session cookie: ${response.statusCode} ${response.body}`);
  return `${SESSION_COOKIE}=${token}`;
}
