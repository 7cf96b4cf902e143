import Fastify, { type HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_AUTHOR_NAME } from '../../../../contract/authors.js';
import { buildIntegration, buildStaff, uniqueEmail, type Member } from '#test/factories';
import { ghostAuthorization } from '#test/ghost-admin-client';
import { withSite, type Site } from '#test/with-site';
import ghostAdminRoutes from './index.js';

// Who may do what through the Admin API: a staff access token acts with exactly its owner's desk
// rights (writers never reach members, editors read them and change nothing), integrations keep
// their documented rights, and an address put on the newsletter through it confirms by mail
// unless an integration says it already agreed.

const OWNER = 'ghost-rights-owner@example.com';
const EDITOR = 'ghost-rights-editor@example.com';
const WRITER = 'ghost-rights-writer@example.com';
const ADMIN = '/ghost/api/admin';

let site: Site;
let owner: Member;
let editor: Member;
let writer: Member;
/** Admin keys (`<id>:<secret>`): each staff member's own token, and an integration's. */
const keys = { owner: '', editor: '', writer: '', integration: '' };

async function api(key: string, method: HTTPMethods, path: string, payload?: object) {
  const response = await site.app.inject({
    method,
    url: `${ADMIN}/${path}`,
    headers: { authorization: await ghostAuthorization(key) },
    ...(payload && { payload }),
  });
  const body = response.body ? (JSON.parse(response.body) as Record<string, unknown>) : {};
  const errors = body.errors as { type: string; message: string }[] | undefined;
  const members = body.members as Record<string, unknown>[] | undefined;
  return { status: response.statusCode, body, errorType: errors?.[0]?.type, member: members?.[0] };
}

async function staffToken(who: Member) {
  const made = await site.call(who, 'POST', '/api/desk/profile/token');
  expect(made.statusCode, made.body).toBe(201);
  return String(made.json().token);
}

const nameOf = async (userId: string) =>
  (
    await site.database.pool.query<{ name: string | null }>(
      `SELECT name FROM users WHERE id = $1`,
      [userId],
    )
  ).rows[0]?.name;
const accountsWith = async (email: string) =>
  (await site.database.pool.query(`SELECT 1 FROM users WHERE email = $1`, [email])).rows.length;
const newsletterStateOf = async (email: string) =>
  (
    await site.database.pool.query<{ state: string }>(
      `SELECT state FROM newsletter_subscribers WHERE email = $1`,
      [email],
    )
  ).rows[0]?.state ?? null;

beforeAll(async () => {
  site = await withSite({
    mail: true,
    env: { STAFF_EMAILS: OWNER, EDITOR_EMAILS: EDITOR, WRITER_EMAILS: WRITER },
  });
  [owner, editor, writer] = await buildStaff(site, 'owner', 'editor', 'writer');
  keys.owner = await staffToken(owner);
  keys.editor = await staffToken(editor);
  keys.writer = await staffToken(writer);
  keys.integration = (await buildIntegration(site, { name: 'Mail sync', by: owner })).adminKey;
});

afterAll(async () => {
  await site?.close();
});

describe('a staff access token acts with its owner’s desk rights', () => {
  it('answers a writer’s token 403 NoPermissionError on every members/ route, and changes nothing', async () => {
    const email = uniqueEmail('ghost-rights-by-writer');
    const answers = [
      await api(keys.writer, 'GET', 'members/?limit=all'),
      await api(keys.writer, 'GET', `members/${owner.userId}/`),
      await api(keys.writer, 'POST', 'members/', { members: [{ email, subscribed: true }] }),
      await api(keys.writer, 'PUT', `members/${owner.userId}/`, {
        members: [{ name: 'Renamed by a writer' }],
      }),
    ];
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(403);
      expect(answer.errorType).toBe('NoPermissionError');
      expect(JSON.stringify(answer.body)).not.toContain(OWNER);
    }
    expect(await accountsWith(email)).toBe(0);
    expect(await newsletterStateOf(email)).toBeNull();
    expect(await nameOf(owner.userId)).toBeNull();
    expect(site.mailbox.mailsTo(email)).toHaveLength(0);

    // Posts stay open to a writer, as the desk's writing is.
    expect((await api(keys.writer, 'GET', 'posts/?limit=1')).status).toBe(200);
    expect((await api(keys.writer, 'GET', 'tags/')).status).toBe(200);
  });

  it('lets an editor’s token read members and answers every change 403', async () => {
    const browsed = await api(keys.editor, 'GET', 'members/?limit=all');
    expect(browsed.status).toBe(200);
    const read = await api(keys.editor, 'GET', `members/${owner.userId}/`);
    expect(read.member).toMatchObject({ email: OWNER });

    const email = uniqueEmail('ghost-rights-by-editor');
    const added = await api(keys.editor, 'POST', 'members/', { members: [{ email }] });
    const renamed = await api(keys.editor, 'PUT', `members/${owner.userId}/`, {
      members: [{ name: 'Renamed by an editor' }],
    });
    for (const answer of [added, renamed]) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(403);
      expect(answer.errorType).toBe('NoPermissionError');
    }
    expect(await accountsWith(email)).toBe(0);
    expect(await nameOf(owner.userId)).toBeNull();
  });

  it('lets an owner’s token change members without a recent sign-in: the token is the proof', async () => {
    await site.database.pool.query(
      `UPDATE sessions SET "signedInAt" = now() - interval '2 days' WHERE id = $1`,
      [owner.sessionId],
    );
    const renamed = await api(keys.owner, 'PUT', `members/${editor.userId}/`, {
      members: [{ name: 'Ed Itor' }],
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await nameOf(editor.userId)).toBe('Ed Itor');
  });

  it('holds a member’s name to the profile’s length', async () => {
    const tooLong = await api(keys.integration, 'PUT', `members/${writer.userId}/`, {
      members: [{ name: 'n'.repeat(MAX_AUTHOR_NAME + 1) }],
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.errorType).toBe('ValidationError');
    const longest = await api(keys.integration, 'PUT', `members/${writer.userId}/`, {
      members: [{ name: 'n'.repeat(MAX_AUTHOR_NAME) }],
    });
    expect(longest.status, JSON.stringify(longest.body)).toBe(200);
  });

  it('keeps a member’s name as the site’s text rule cleans it: no right-to-left override', async () => {
    const renamed = await api(keys.integration, 'PUT', `members/${writer.userId}/`, {
      members: [{ name: 'Ann\u202e nimda\u202c\u200b' }],
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.member).toMatchObject({ name: 'Ann nimda' });
  });
});

describe('an address put on the newsletter through the Admin API', () => {
  const confirmLinkIn = (text: string | undefined) => /#token=([\w-]+)/.exec(text ?? '')?.[1];

  it('stays pending until its owner presses the link the confirmation mail carries', async () => {
    const email = uniqueEmail('ghost-rights-asked');
    const added = await api(keys.integration, 'POST', 'members/', {
      members: [{ email, subscribed: true }],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.member).toMatchObject({ email, subscribed: false });
    expect(await newsletterStateOf(email)).toBe('pending');
    const [mail] = site.mailbox.mailsTo(email);
    expect(mail?.subject).toBe('Confirm your subscription to the Cohort newsletter');
    const token = confirmLinkIn(mail?.text);
    expect(token).toBeDefined();

    const confirmed = await site.call(null, 'POST', '/api/newsletter/confirm', { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await newsletterStateOf(email)).toBe('confirmed');
    // Asked again once on the list: no second mail.
    const again = await api(keys.integration, 'PUT', `members/${String(added.member?.id)}/`, {
      members: [{ newsletters: [{ id: 'weekly' }] }],
    });
    expect(again.member).toMatchObject({ subscribed: true });
    expect(site.mailbox.mailsTo(email)).toHaveLength(1);
  });

  it('mails the confirmation when an owner’s token subscribes an existing member too', async () => {
    const email = uniqueEmail('ghost-rights-owner-asks');
    const added = await api(keys.owner, 'POST', 'members/', { members: [{ email }] });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const edited = await api(keys.owner, 'PUT', `members/${String(added.member?.id)}/`, {
      members: [{ newsletters: [{ id: 'weekly' }] }],
    });
    expect(edited.member).toMatchObject({ subscribed: false });
    expect(await newsletterStateOf(email)).toBe('pending');
    expect(site.mailbox.mailsTo(email)).toHaveLength(1);
  });

  it('is confirmed at once, unmailed, when an integration says it agreed (send_email=false)', async () => {
    const email = uniqueEmail('ghost-rights-agreed');
    const added = await api(keys.integration, 'POST', 'members/?send_email=false', {
      members: [{ email, newsletters: [{ id: 'weekly' }] }],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.member).toMatchObject({ email, subscribed: true });
    expect(await newsletterStateOf(email)).toBe('confirmed');
    expect(site.mailbox.mailsTo(email)).toHaveLength(0);
  });

  it('refuses a staff token’s word that an address agreed', async () => {
    const email = uniqueEmail('ghost-rights-owner-says');
    const refused = await api(keys.owner, 'POST', 'members/?send_email=false', {
      members: [{ email, subscribed: true }],
    });
    expect(refused.status).toBe(403);
    expect(refused.errorType).toBe('NoPermissionError');
    expect(await accountsWith(email)).toBe(0);
    const unclear = await api(keys.integration, 'POST', 'members/?send_email=maybe', {
      members: [{ email, subscribed: true }],
    });
    expect(unclear.status).toBe(400);
    expect(await accountsWith(email)).toBe(0);
  });
});

describe('every Admin API route says what right it needs', () => {
  it('declares one of the known rights on each route, members/ by reading or changing', async () => {
    const app = Fastify();
    const routes: { method: string; url: string; access: unknown }[] = [];
    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat();
      for (const method of methods) {
        routes.push({ method, url: route.url, access: route.config?.ghostAccess });
      }
    });
    await app.register(ghostAdminRoutes, {
      prefix: ADMIN,
      siteUrl: 'https://cohort.example',
      staff: { owners: [], editors: [], writers: [] },
      secrets: { sessionSecret: 'x'.repeat(48) },
      maxUploadBytes: 1024,
    });
    await app.ready();
    await app.close();
    expect(routes.length).toBeGreaterThan(10);
    const access = Object.fromEntries(
      routes.map((route) => [`${route.method} ${route.url}`, route.access]),
    );
    for (const route of routes) {
      expect(['anyone', 'posts', 'see-members', 'change-members'], route.url).toContain(
        route.access,
      );
    }
    expect(Object.entries(access).filter(([, right]) => right === 'anyone')).toEqual([
      ['GET /ghost/api/admin/site/', 'anyone'],
      ['HEAD /ghost/api/admin/site/', 'anyone'],
    ]);
    expect(access).toMatchObject({
      'GET /ghost/api/admin/members/': 'see-members',
      'GET /ghost/api/admin/members/:id/': 'see-members',
      'POST /ghost/api/admin/members/': 'change-members',
      'PUT /ghost/api/admin/members/:id/': 'change-members',
      'DELETE /ghost/api/admin/posts/:id/': 'posts',
    });
  });
});
