import { describe, expect, it } from 'vitest';
import { waitForMail } from '#test/registration';
import { OWNER, EDITOR, WRITER, ARTICLE, useDeskPostsSite } from '#test/desk-posts-site';

// The desk's posts by role: an unknown address to all but staff, and what a writer may do (draft,
// submit) and may not (publish, touch what is live, see members).

describe('the desk’s posts: who may see and do what', () => {
  const { call, published, editor, writer, reader, t, mailbox } = useDeskPostsSite();

  it('is an unknown address to anyone but staff, whatever they send', async () => {
    for (const who of [null, reader]) {
      for (const [method, url] of [
        ['GET', '/api/desk/posts'],
        ['POST', '/api/desk/posts'],
        ['PATCH', '/api/desk/posts/1'],
        ['POST', '/api/desk/posts/1/publish'],
        ['DELETE', '/api/desk/posts/1'],
      ] as const) {
        const response = await call(
          who,
          method,
          url,
          method === 'GET' || method === 'DELETE' ? undefined : ARTICLE,
        );
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json().error.code).toBe('not_found');
      }
    }
    expect(Number((await t.database.pool.query('SELECT count(*) FROM posts')).rows[0].count)).toBe(
      0,
    );
  });

  it('lets a writer draft and submit, never publish, touch what is live, or see members', async () => {
    const { post } = (
      await call(writer, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'from-a-writer' })
    ).json();
    const ownerBefore = mailbox.mailsTo(OWNER).length;
    const editorBefore = mailbox.mailsTo(EDITOR).length;
    const writerBefore = mailbox.mailsTo(WRITER).length;
    const submitted = await call(writer, 'POST', `/api/desk/posts/${post.id}/submit`, {
      version: post.version,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().post.submittedAt).not.toBeNull();
    // Whoever publishes is told by mail: who submitted what, and where to publish it.
    for (const [publisher, before] of [
      [OWNER, ownerBefore],
      [EDITOR, editorBefore],
    ] as const) {
      const told = await waitForMail(mailbox, publisher, before + 1);
      expect(told.subject).toBe(`Ready for review: “${post.title}”`);
      expect(told.text).toContain(`${WRITER} submitted “${post.title}” for publishing`);
      expect(told.text).toContain(`/desk/posts/${post.id}\n`);
    }
    expect(mailbox.mailsTo(WRITER)).toHaveLength(writerBefore);
    const publish = await call(writer, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version + 1,
    });
    expect(publish.statusCode).toBe(403);
    expect(publish.json().error.code).toBe('writers_cannot_publish');

    const live = await published({ slug: 'live-already' });
    const edit = await call(writer, 'PATCH', `/api/desk/posts/${live.id}`, {
      version: live.version,
      title: 'Mine now',
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().error.code).toBe('writers_edit_drafts');
    for (const url of ['/api/desk/members', '/api/desk/dashboard', '/api/desk/audit']) {
      const response = await call(writer, 'GET', url);
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error.code).toBe('writers_see_posts_only');
    }
    expect((await call(writer, 'GET', '/api/desk/me')).json().role).toBe('writer');

    // An editor publishes the writer's draft.
    const byEditor = await call(editor, 'POST', `/api/desk/posts/${post.id}/publish`, {
      version: post.version + 1,
    });
    expect(byEditor.statusCode, byEditor.body).toBe(200);
    expect(byEditor.json().post).toMatchObject({ status: 'published', submittedAt: null });
  });
});
