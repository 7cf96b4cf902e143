import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, type Member } from '#test/factories';
import { withSite, type Site } from '#test/with-site';

// The desk's exports on a pool of one connection, as the embedded database has: an export that
// waited for a second connection while holding its first would wait for itself (a 503 after the
// pool's timeout, and every other request stalled meanwhile).

const EDITOR = 'one-connection-editor@example.com';

describe('the desk’s exports on a one-connection pool', () => {
  let t: Site;
  let editor: Member;

  beforeAll(async () => {
    t = await withSite({ maxConnections: 1, env: { EDITOR_EMAILS: EDITOR } });
    editor = await buildMember(t, { email: EDITOR });
    await t.database.pool.query(
      `INSERT INTO newsletter_subscribers (id, email, state, "confirmedAt", "updatedAt")
       VALUES (gen_random_uuid(), 'reader@example.com', 'confirmed', now(), now())`,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('exports the newsletter’s subscribers and audits the count, on the one connection', async () => {
    const started = Date.now();
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/desk/exports/newsletter',
      headers: { cookie: editor.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain('reader@example.com');
    // Not after the pool's wait for a connection that never comes free.
    expect(Date.now() - started).toBeLessThan(2_500);
    const { rows } = await t.database.pool.query(
      `SELECT action, after FROM audit_log WHERE action = 'newsletter_export'`,
    );
    expect(rows).toEqual([
      { action: 'newsletter_export', after: { state: 'confirmed', subscribers: 1 } },
    ]);
  });

  it('exports the members list on the one connection too', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/desk/exports/members',
      headers: { cookie: editor.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain(EDITOR);
  });
});
