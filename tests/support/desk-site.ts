import { beforeAll } from 'vitest';
import { buildMember, uniqueEmail as uniqueAddress, type Member } from '#test/factories';
import { madeLater } from '#test/made-later';
import { useSite } from '#test/with-site';
import { SESSION_COOKIE } from '../../server/src/plugins/app/sessions.js';

// The site the publisher's desk tests (server/src/routes/desk/desk-*.test.ts) run against: the real
// app and PostgreSQL, with payments against the fake Stripe and a mailbox, an owner, an editor and
// a reader, and the calls those tests make.

export const PASSWORD = 'correct horse battery staple';
export const OWNER = 'owner@example.com';
export const EDITOR = 'editor@example.com';
export const OFFER = { priceCents: 1200, currency: 'usd', priceId: undefined };
export const uniqueEmail = () => uniqueAddress('desk-');

export type Browser = Pick<Member, 'userId' | 'cookie'>;

/**
 * Starts the site before the calling describe's tests and stops it after them (`useSite`).
 * Everything it answers can be named at once; its app and members are made by the describe's first `beforeAll`
 * hooks, and stand in until then (`madeLater`), so the tests use them.
 */
export function useDeskSite() {
  const t = useSite({
    payments: true,
    mail: true,
    env: { STAFF_EMAILS: OWNER, EDITOR_EMAILS: EDITOR },
  });
  const [owner, makeOwner] = madeLater<Browser>('The owner');
  const [editor, makeEditor] = madeLater<Browser>('The editor');
  const [reader, makeReader] = madeLater<Browser>('The reader');

  const cookieOf = (response: { cookies: { name: string; value: string }[] }) => {
    const value = response.cookies.find((c) => c.name === SESSION_COOKIE)?.value;
    if (!value) throw new Error('no session cookie in the answer');
    return `${SESSION_COOKIE}=${value}`;
  };

  /** A reader with an account (a password too, to sign in elsewhere), signed in just now. */
  const register = (email = uniqueEmail()): Promise<Browser> =>
    buildMember(t, { email, password: PASSWORD });

  const auditCount = async () =>
    Number((await t.database.pool.query('SELECT count(*) FROM audit_log')).rows[0].count);

  beforeAll(async () => {
    const [madeOwner, madeEditor, madeReader] = await Promise.all([
      register(OWNER),
      register(EDITOR),
      register(uniqueEmail()),
    ]);
    makeOwner(madeOwner);
    makeEditor(madeEditor);
    makeReader(madeReader);
  });

  const grant = (userId: string, until: string, reason = 'Speaker at our spring event') =>
    t.call(owner, 'POST', `/api/desk/members/${userId}/comps`, { until, reason });
  const member = async (userId: string) =>
    (await t.call(owner, 'GET', `/api/desk/members/${userId}`)).json();
  const audit = async (userId: string) => (await member(userId)).audit;

  return { t, owner, editor, reader, cookieOf, register, auditCount, grant, member, audit };
}
