import { describe, expect, it } from 'vitest';
import { newVisitor } from '#test/visitor';
import { PASSWORD, OWNER, EDITOR, useDeskSite } from '#test/desk-site';

// Who may enter the publisher's desk: 404 to anyone but staff, exactly as an unknown address, and
// nothing changes; an editor looks but never changes; an owner signed in within 12 hours changes.

describe('the publisher’s desk', () => {
  const { cookieOf, auditCount, t, owner, editor, reader } = useDeskSite();

  describe('who may enter', () => {
    /** What Fastify answers for an address no route has: the desk must look exactly like it. */
    const notFound = (method: string, path: string) => ({
      error: { code: 'not_found', message: `No such resource: ${method} ${path}` },
    });
    const headerNames = (headers: Record<string, unknown>) =>
      Object.keys(headers)
        .filter((name) => !['date', 'content-length'].includes(name))
        .sort();

    it('answers an anonymous visitor, a reader and a cookie-less browser as if the desk did not exist, and nothing changes', async () => {
      const anonymous = await newVisitor(t.app);
      const target = reader.userId;
      const addresses: ['GET' | 'POST', string, (object | string)?][] = [
        ['GET', '/api/desk/me'],
        ['GET', '/api/desk/members?q=example'],
        ['GET', `/api/desk/members/${target}`],
        ['GET', '/api/desk/dashboard'],
        ['GET', '/api/desk/audit'],
        ['GET', '/api/desk/exports/members'],
        ['GET', '/api/desk/exports/newsletter'],
        ['GET', '/api/desk/members?filter=newsletter_subscribed'],
        ['POST', `/api/desk/members/${target}/comps`, { until: '2099-01-01', reason: 'a gift' }],
        // A wrong body or query is not even looked at: no 400 gives the desk away.
        ['POST', `/api/desk/members/${target}/comps`, '{"not json'],
        ['POST', `/api/desk/members/${target}/comps`, { unexpected: true }],
        ['GET', '/api/desk/members?filter=not-a-filter'],
        ['POST', `/api/desk/members/${target}/reread`],
        ['POST', `/api/desk/members/${target}/sessions/end`],
        ['POST', `/api/desk/members/${target}/password-reset`],
      ];
      for (const who of [null, anonymous, reader]) {
        const unknown = await t.call(who, 'GET', '/api/desk/no-such-screen');
        expect(unknown.json()).toEqual(notFound('GET', '/api/desk/no-such-screen'));
        for (const [method, url, payload] of addresses) {
          const response = await t.call(who, method, url, payload);
          const path = url.split('?')[0] ?? url;
          expect({ url, status: response.statusCode, body: response.json() }).toEqual({
            url,
            status: 404,
            body: notFound(method, path),
          });
          expect(headerNames(response.headers)).toEqual(headerNames(unknown.headers));
        }
      }
      expect(await auditCount()).toBe(0);
      expect((await t.me(reader)).isSubscribed).toBe(false);
      const { rowCount } = await t.database.pool.query(
        'SELECT 1 FROM entitlements WHERE "userId" = $1',
        [target],
      );
      expect(rowCount).toBe(0);
      expect(t.mailbox.mails).toEqual([]);
    });

    it('lets an editor look but not change anything (403), and nothing changes', async () => {
      const look = await t.call(editor, 'GET', '/api/desk/me');
      expect(look.statusCode).toBe(200);
      expect(look.json()).toMatchObject({ email: EDITOR, role: 'editor', canChange: false });
      expect(look.headers['cache-control']).toBe('no-store');
      expect(look.headers['x-robots-tag']).toBe('noindex');
      expect((await t.call(editor, 'GET', `/api/desk/members/${reader.userId}`)).statusCode).toBe(
        200,
      );
      const before = await auditCount();
      for (const [url, payload] of [
        [`/api/desk/members/${reader.userId}/comps`, { until: '2099-01-01', reason: 'a gift' }],
        [`/api/desk/members/${reader.userId}/reread`, undefined],
        [`/api/desk/members/${reader.userId}/sessions/end`, undefined],
        [`/api/desk/members/${reader.userId}/password-reset`, undefined],
      ] as const) {
        const response = await t.call(editor, 'POST', url, payload);
        expect({ url, status: response.statusCode, code: response.json().error.code }).toEqual({
          url,
          status: 403,
          code: 'read_only_staff',
        });
      }
      expect(await auditCount()).toBe(before);
      expect((await t.me(reader)).isSubscribed).toBe(false);
      expect(t.mailbox.mails).toEqual([]);
      expect((await t.call(reader, 'GET', '/api/me')).statusCode).toBe(200);
    });

    it('asks an owner whose sign-in is older than 12 hours to sign in again before any change', async () => {
      await t.database.pool.query(
        `UPDATE sessions SET "signedInAt" = now() - interval '13 hours' WHERE "userId" = $1`,
        [owner.userId],
      );
      const staleOwner = await t.call(owner, 'GET', '/api/desk/me');
      expect(staleOwner.json()).toMatchObject({ role: 'owner', canChange: false });
      const refused = await t.call(owner, 'POST', `/api/desk/members/${reader.userId}/comps`, {
        until: '2099-01-01',
        reason: 'a gift',
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('sign_in_again');
      expect((await t.me(reader)).isSubscribed).toBe(false);

      // Signing in again (a new session) allows changes for 12 hours.
      const again = await newVisitor(t.app);
      const signedIn = await again.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: OWNER, password: PASSWORD },
      });
      expect(signedIn.statusCode).toBe(200);
      const ownerAgain = { userId: owner.userId, cookie: cookieOf(signedIn) };
      const fresh = (await t.call(ownerAgain, 'GET', '/api/desk/me')).json();
      expect(fresh).toMatchObject({ role: 'owner', canChange: true });
      expect(Date.parse(fresh.changesAllowedUntil) - Date.parse(fresh.signedInAt)).toBe(
        12 * 3600 * 1000,
      );
    });
  });
});
