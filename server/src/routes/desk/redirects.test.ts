import { beforeAll, describe, expect, it } from 'vitest';
import { buildPost, buildStaff, type Member } from '#test/factories';
import { useSite } from '#test/with-site';

// The publisher's redirects (server/src/redirects/): an owner uploads Ghost's redirects.yaml or
// redirects.json from the desk, the site follows them where it would answer 404 (a real post wins),
// a file that would send readers off the site without an address written out is refused whole,
// a catastrophic expression costs nothing, every change is audited, and only owners may.

const YAML = `301:
  /old-post/: /new-post/
  ^/blog/([a-z0-9-]+)/?$: /articles/$1
302:
  /spring-sale/: /join
`;

describe('the desk’s redirects', () => {
  const t = useSite({
    built: true,
    env: {
      STAFF_EMAILS: 'owner@example.com',
      EDITOR_EMAILS: 'editor@example.com',
      WRITER_EMAILS: 'writer@example.com',
    },
  });
  let owner: Member;
  let editor: Member;
  let writer: Member;
  beforeAll(async () => {
    [owner, editor, writer] = await buildStaff(t, 'owner', 'editor', 'writer');
  });
  const audited = async () =>
    (
      await t.database.pool.query<{ actorEmail: string; before: unknown; after: unknown }>(
        `SELECT "actorEmail", "before", "after" FROM audit_log
          WHERE action = 'redirects_change' ORDER BY id`,
      )
    ).rows;
  const stored = async () =>
    (await t.database.pool.query(`SELECT "format", "file" FROM "custom_redirects"`)).rows;

  it('takes an owner’s redirects.yaml, answers it as given with its rules, and follows it', async () => {
    const saved = await t.call(owner, 'PUT', '/api/desk/redirects', { format: 'yaml', file: YAML });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      format: 'yaml',
      file: YAML,
      redirects: [
        { from: '/old-post/', to: '/new-post/', permanent: true },
        { from: '^/blog/([a-z0-9-]+)/?$', to: '/articles/$1', permanent: true },
        { from: '/spring-sale/', to: '/join', permanent: false },
      ],
    });
    expect((await t.call(owner, 'GET', '/api/desk/redirects')).json()).toEqual(saved.json());

    // Followed at once, with and without the slash, in one hop.
    for (const path of ['/old-post', '/old-post/']) {
      const moved = await t.call(null, 'GET', path);
      expect(moved.statusCode, path).toBe(301);
      expect(moved.headers.location).toBe('/new-post/');
    }
    const captured = await t.call(null, 'GET', '/blog/rent-strike-day-one?utm_source=feed');
    expect(captured.statusCode).toBe(301);
    expect(captured.headers.location).toBe('/articles/rent-strike-day-one?utm_source=feed');
    const temporary = await t.call(null, 'GET', '/spring-sale');
    expect(temporary.statusCode).toBe(302);
    expect(temporary.headers.location).toBe('/join');
    expect((await t.call(null, 'GET', '/never-was-here')).statusCode).toBe(404);

    const [entry] = await audited();
    expect(entry).toEqual({
      actorEmail: 'owner@example.com',
      before: { format: null, redirects: [] },
      after: { format: 'yaml', redirects: saved.json().redirects },
    });
  });

  it('lets a real post at the address win over a redirect', async () => {
    const post = await buildPost(t, { title: 'Still here' });
    const file = JSON.stringify([{ from: `^${post.path}$`, to: '/elsewhere', permanent: true }]);
    const saved = await t.call(owner, 'PUT', '/api/desk/redirects', { format: 'json', file });
    expect(saved.statusCode, saved.body).toBe(200);
    const page = await t.call(null, 'GET', post.path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Still here');
    // Back to the YAML for the tests below.
    await t.call(owner, 'PUT', '/api/desk/redirects', { format: 'yaml', file: YAML });
  });

  it.each([
    ['//evil.example', /`to` \/\/evil\.example is neither a path on this site/],
    ['\\\\evil.example', /backslashes/],
    ['/\\evil.example', /backslashes/],
    ['evil.example', /neither a path on this site/],
    ['javascript:alert(1)', /neither a path on this site/],
  ])(
    'refuses a file sending readers off the site to %s (400), changing nothing',
    async (to, why) => {
      const before = await stored();
      const auditedBefore = (await audited()).length;
      const file = `301:\n  /fine/: /also-fine\n  /trap/: ${JSON.stringify(to)}\n`;
      const refused = await t.call(owner, 'PUT', '/api/desk/redirects', { format: 'yaml', file });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('invalid_redirects');
      expect(refused.json().error.message).toMatch(/^The redirects were not saved: 301 \/trap\/: /);
      expect(refused.json().error.message).toMatch(why);
      expect(await stored()).toEqual(before);
      expect(await audited()).toHaveLength(auditedBefore);
      expect((await t.call(null, 'GET', '/trap')).statusCode).toBe(404);
    },
  );

  it('sends a reader to another site only where the owner wrote its whole address', async () => {
    const file = JSON.stringify([
      { from: '^/go/(.*)$', to: '/$1', permanent: false },
      { from: '^/shop/(.*)$', to: 'https://shop.example/items/$1', permanent: false },
    ]);
    const saved = await t.call(owner, 'PUT', '/api/desk/redirects', { format: 'json', file });
    expect(saved.statusCode, saved.body).toBe(200);
    // A capture cannot make a relative target leave: `//evil.example` lands on this site.
    const trick = await t.call(null, 'GET', '/go//evil.example/login');
    expect(trick.statusCode).toBe(302);
    expect(trick.headers.location).toBe('/evil.example/login');
    const shop = await t.call(null, 'GET', '/shop/mugs');
    expect(shop.headers.location).toBe('https://shop.example/items/mugs');
    await t.call(owner, 'PUT', '/api/desk/redirects', { format: 'yaml', file: YAML });
  });

  it('runs a catastrophic expression in linear time, and refuses what would need backtracking', async () => {
    const file = JSON.stringify([{ from: '^/([a/]+)+$', to: '/many-as', permanent: true }]);
    const saved = await t.call(owner, 'PUT', '/api/desk/redirects', { format: 'json', file });
    expect(saved.statusCode, saved.body).toBe(200);
    // `^(a+)+$`'s kind against a long run of a's ending in another character: about 2^n steps for
    // a backtracking engine (JavaScript's own would not finish), a few milliseconds here. In
    // segments, since the router answers 414 to one over 100 characters.
    const started = performance.now();
    const evil = await t.call(null, 'GET', `/${'a'.repeat(99)}/`.repeat(20) + 'a!');
    const took = performance.now() - started;
    expect(evil.statusCode).toBe(404);
    expect(took).toBeLessThan(1000);
    expect((await t.call(null, 'GET', '/aaaa/aa')).headers.location).toBe('/many-as');

    const backreference = JSON.stringify([{ from: '^/(a+)\\1$', to: '/x', permanent: true }]);
    const refused = await t.call(owner, 'PUT', '/api/desk/redirects', {
      format: 'json',
      file: backreference,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/backreferences are not run here/);
    await t.call(owner, 'PUT', '/api/desk/redirects', { format: 'yaml', file: YAML });
  });

  it('refuses a body that is not a redirects file, and a file not in Ghost’s shape', async () => {
    const wrongFormat = await t.call(owner, 'PUT', '/api/desk/redirects', {
      format: 'csv',
      file: '',
    });
    expect(wrongFormat.statusCode).toBe(400);
    expect(wrongFormat.json().error.message).toMatch(/^Invalid redirects: format/);
    const notAnArray = await t.call(owner, 'PUT', '/api/desk/redirects', {
      format: 'json',
      file: '{"from": "/a", "to": "/b"}',
    });
    expect(notAnArray.statusCode).toBe(400);
    expect(notAnArray.json().error.message).toMatch(/redirects\.json is an array/);
  });

  it('is for owners: an editor and a writer are refused (403), anyone else finds nothing', async () => {
    for (const who of [editor, writer]) {
      expect((await t.call(who, 'GET', '/api/desk/redirects')).statusCode).toBe(403);
      const put = await t.call(who, 'PUT', '/api/desk/redirects', { format: 'yaml', file: '' });
      expect(put.statusCode).toBe(403);
    }
    expect((await t.call(null, 'GET', '/api/desk/redirects')).statusCode).toBe(404);
    expect(await stored()).toEqual([{ format: 'yaml', file: YAML }]);
  });

  it('empties them with an empty file, audited, and the old addresses answer 404 again', async () => {
    const emptied = await t.call(owner, 'PUT', '/api/desk/redirects', { format: 'yaml', file: '' });
    expect(emptied.statusCode, emptied.body).toBe(200);
    expect(emptied.json().redirects).toEqual([]);
    expect((await t.call(null, 'GET', '/old-post')).statusCode).toBe(404);
    const last = (await audited()).at(-1);
    expect(last?.after).toEqual({ format: 'yaml', redirects: [] });
  });
});
