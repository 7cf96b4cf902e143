import { describe, expect, it } from 'vitest';
import { OWNER, WRITER, ARTICLE, useDeskPostsSite } from '#test/desk-posts-site';

// No save overwrites another's or loses what it replaced: one slug for two posts made at once, a
// 409 for the second of two saves from one version, and every earlier version kept to restore.

describe('the desk’s posts: no save lost', () => {
  const { call, owner, editor, writer, reader } = useDeskPostsSite();

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
  it('gives an earlier version whole, with the status it had, to compare with the post now', async () => {
    const { post } = (
      await call(owner, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'compared' })
    ).json();
    const second = await call(owner, 'PATCH', `/api/desk/posts/${post.id}`, {
      version: post.version,
      title: 'Renting, Second Thoughts',
      body: '## Before you sign\n\nRead the lease twice, then ask.\n',
    });
    expect(second.statusCode, second.body).toBe(200);
    const live = await call(owner, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: second.json().post.version,
    });
    expect(live.statusCode, live.body).toBe(200);
    const third = await call(owner, 'PATCH', `/api/desk/posts/${post.id}`, {
      version: live.json().post.version,
      summary: 'A summary changed on the live post.',
    });
    expect(third.statusCode, third.body).toBe(200);

    const first = await call(writer, 'GET', `/api/desk/posts/${post.id}/revisions/1`);
    expect(first.statusCode, first.body).toBe(200);
    const { revision } = first.json();
    expect(revision).toMatchObject({ version: 1, savedBy: OWNER, status: 'draft' });
    expect(new Date(revision.savedAt).getTime()).toBe(new Date(post.updatedAt).getTime());
    expect(revision.post).toMatchObject({
      id: post.id,
      version: 1,
      title: ARTICLE.title,
      body: ARTICLE.body,
      summary: ARTICLE.summary,
      category: 'Wealth',
      status: 'draft',
      path: '/wealth/compared',
    });
    // The version that was live before the summary changed says so, here and in the list.
    const published = (
      await call(owner, 'GET', `/api/desk/posts/${post.id}/revisions/${live.json().post.version}`)
    ).json().revision;
    expect(published.status).toBe('published');
    expect(published.post).toMatchObject({
      title: 'Renting, Second Thoughts',
      summary: ARTICLE.summary,
    });
    // (Publishing raised the version without a save: the text of version 2 is version 3's.)
    const list = (await call(owner, 'GET', `/api/desk/posts/${post.id}/revisions`)).json();
    expect(
      list.revisions.map((r: { version: number; status: string }) => [r.version, r.status]),
    ).toEqual([
      [3, 'published'],
      [1, 'draft'],
    ]);

    const unknown = await call(owner, 'GET', `/api/desk/posts/${post.id}/revisions/99`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('revision_not_found');
    expect((await call(owner, 'GET', `/api/desk/posts/999999/revisions/1`)).statusCode).toBe(404);
    expect(
      (await call(owner, 'GET', `/api/desk/posts/${post.id}/revisions/first`)).statusCode,
    ).toBe(400);
    for (const who of [null, reader]) {
      const hidden = await call(who, 'GET', `/api/desk/posts/${post.id}/revisions/1`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().error.code).toBe('not_found');
    }
  });
});
