import { describe, expect, it } from 'vitest';
import { ARTICLE, useDeskPostsSite } from '#test/desk-posts-site';

// A post's old addresses: a 301 to the new one when a live post's slug or section changes, kept
// for it whoever drafts there, until an owner gives the address to another post.

describe('the desk’s posts: old addresses', () => {
  const { call, page, published, owner, editor, writer, t } = useDeskPostsSite();

  it('leads an old address to the new one with a 301 when a live post’s slug or section changes', async () => {
    const live = await published({ slug: 'old-name' });
    const renamed = await call(editor, 'PATCH', `/api/desk/posts/${live.id}`, {
      version: live.version,
      slug: 'new-name',
      category: 'Health',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().post.path).toBe('/health/new-name');
    expect((await page('/health/new-name')).statusCode).toBe(200);
    const moved = await page('/wealth/old-name');
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe('/health/new-name');
    // Only addresses it had: any other slug in any section is still no page.
    for (const never of ['/health/old-name', '/wealth/new-name']) {
      expect((await page(never)).statusCode, never).toBe(404);
    }

    // Moved again: every earlier address leads to the newest.
    const again = await call(editor, 'PATCH', `/api/desk/posts/${live.id}`, {
      version: renamed.json().post.version,
      slug: 'newest-name',
    });
    expect(again.statusCode, again.body).toBe(200);
    for (const old of ['/wealth/old-name', '/health/new-name']) {
      const response = await page(old);
      expect(response.statusCode, old).toBe(301);
      expect(response.headers.location).toBe('/health/newest-name');
    }
  });

  it('keeps an old address leading to its post whoever drafts there, until an owner gives it to another', async () => {
    const live = await published({ slug: 'first-address' });
    const renamed = await call(editor, 'PATCH', `/api/desk/posts/${live.id}`, {
      version: live.version,
      slug: 'second-address',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const leadsOn = async () => {
      const response = await page('/wealth/first-address');
      expect(response.statusCode).toBe(301);
      expect(response.headers.location).toBe('/wealth/second-address');
    };
    await leadsOn();

    // A writer's draft moved there, a new draft there, an editor's: refused, and it still leads on.
    const { post: draft } = (
      await call(writer, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'a-writers-draft' })
    ).json();
    for (const [who, method, url, body] of [
      [
        writer,
        'PATCH',
        `/api/desk/posts/${draft.id}`,
        { version: draft.version, slug: 'first-address' },
      ],
      [writer, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'first-address' }],
      [editor, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'first-address' }],
    ] as const) {
      const refused = await call(who, method, url, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(400);
      expect(refused.json().error.message).toMatch(
        new RegExp(`^slug: /wealth/first-address leads to post ${live.id}`),
      );
    }
    await leadsOn();
    const { rows } = await t.database.pool.query(
      `SELECT "postId" FROM "post_paths" WHERE "path" = '/wealth/first-address'`,
    );
    expect(rows).toEqual([{ postId: live.id }]);

    // An owner gives it to a new post: once that is live, the address is its own.
    const taken = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      title: 'A New First Address',
      slug: 'first-address',
    });
    expect(taken.statusCode, taken.body).toBe(201);
    // That save ends the redirect at once: the draft is not live yet, so the address is unknown.
    expect((await page('/wealth/first-address')).statusCode).toBe(404);
    const { post } = taken.json();
    const live2 = await call(editor, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version,
    });
    expect(live2.statusCode, live2.body).toBe(200);
    const now = await page('/wealth/first-address');
    expect(now.statusCode).toBe(200);
    expect(now.body).toContain('A New First Address');
  });
});
