import { describe, expect, it } from 'vitest';
import { WRITER, ARTICLE, useDeskPostsSite } from '#test/desk-posts-site';

// No save overwrites another's or loses what it replaced: one slug for two posts made at once, a
// 409 for the second of two saves from one version, and every earlier version kept to restore.

describe('the desk’s posts: no save lost', () => {
  const { call, owner, editor, writer } = useDeskPostsSite();

  it('gives a slug to one of two posts made with it at once, and names it to the other', async () => {
    const [first, second] = await Promise.all(
      [owner, editor].map((who) =>
        call(who, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'made-at-once' }),
      ),
    );
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([201, 400]);
    const refused = first?.statusCode === 400 ? first : second;
    expect(refused?.json().error.message).toMatch(/^slug: "made-at-once" is taken by another/);
  });

  it('gives one of two saves from the same version a 200 and the other a 409 with the post as it is', async () => {
    const { post } = (
      await call(editor, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'two-writers' })
    ).json();
    const [first, second] = await Promise.all([
      call(owner, 'PATCH', `/api/desk/posts/${post.id}`, {
        version: post.version,
        title: 'Owner’s title',
      }),
      call(editor, 'PATCH', `/api/desk/posts/${post.id}`, {
        version: post.version,
        title: 'Editor’s title',
      }),
    ]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const [won, lost] = first.statusCode === 200 ? [first, second] : [second, first];
    // Exactly the error and the post now: the editor reads both to offer a comparison.
    expect(lost.json()).toEqual({
      error: {
        code: 'edit_conflict',
        message: expect.stringMatching(/at version \d+ now/),
      },
      post: won.json().post,
    });
    expect(won.json().post.version).toBe(post.version + 1);

    // Nothing either wrote is lost: the one that lost still has its text, the first is a revision.
    const stale = await call(owner, 'PATCH', `/api/desk/posts/${post.id}`, { title: 'No version' });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error.message).toMatch(/^version: is required/);
  });

  it('keeps every earlier version, and restores one as a new version', async () => {
    const { post } = (
      await call(writer, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'many-drafts' })
    ).json();
    let version = post.version;
    for (const title of ['Second title', 'Third title']) {
      const saved = await call(writer, 'PATCH', `/api/desk/posts/${post.id}`, { version, title });
      expect(saved.statusCode, saved.body).toBe(200);
      version = saved.json().post.version;
    }
    const revisions = (await call(writer, 'GET', `/api/desk/posts/${post.id}/revisions`)).json()
      .revisions;
    expect(revisions.map((r: { version: number; title: string }) => [r.version, r.title])).toEqual([
      [2, 'Second title'],
      [1, ARTICLE.title],
    ]);
    expect(revisions[0].savedByEmail).toBe(WRITER);

    const restored = await call(writer, 'POST', `/api/desk/posts/${post.id}/revisions/1/restore`, {
      version,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().post).toMatchObject({ title: ARTICLE.title, version: version + 1 });
    const after = (await call(writer, 'GET', `/api/desk/posts/${post.id}/revisions`)).json()
      .revisions;
    expect(after[0]).toMatchObject({ version, title: 'Third title' });
    const missing = await call(
      writer,
      'POST',
      `/api/desk/posts/${post.id}/revisions/99/restore`,
      {},
    );
    expect(missing.statusCode).toBe(404);
  });
});
