import { describe, expect, it } from 'vitest';
import { EDITOR, ARTICLE, useDeskPostsSite } from '#test/desk-posts-site';

// Topics: the tags on posts, which editors describe (writers cannot); a wrong body changes nothing.

describe('the desk’s posts: topics', () => {
  const { call, page, published, owner, editor, writer, t } = useDeskPostsSite();

  it('tags posts with topics, which editors describe and writers cannot; a wrong body changes nothing', async () => {
    const badTags = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'bad-tags',
      tags: ['Housing', 'housing'],
    });
    expect(badTags.statusCode).toBe(400);
    expect(badTags.body).toContain('must not name the same tag twice');

    const post = await published({
      slug: 'first-flat-topics',
      tags: ['Renting', 'First home'],
    });
    expect(post.tags).toEqual(['Renting', 'First home']);
    const listed = await call(editor, 'GET', '/api/desk/topics');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().topics).toContainEqual({
      slug: 'first-home',
      name: 'First home',
      count: 1,
      description: 'Articles and campaigns about first home, newest first.',
      written: false,
    });

    const description = 'Leases, deposits and the first keys: everything about a first home.';
    for (const [who, body, status] of [
      [writer, { description }, 403],
      [editor, {}, 400],
      [editor, { description: 42 }, 400],
      [editor, { description: 'x'.repeat(301) }, 400],
      [editor, { description: 'Leases\u0000' }, 400],
    ] as const) {
      const refused = await t.app.inject({
        method: 'PUT',
        url: '/api/desk/topics/first-home',
        headers: { cookie: who.cookie },
        payload: body,
      });
      expect(refused.statusCode, JSON.stringify(body)).toBe(status);
    }
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/desk/topics/no-such-topic',
          headers: { cookie: editor.cookie },
          payload: { description },
        })
      ).statusCode,
    ).toBe(404);
    const { rows: none } = await t.database.pool.query(`SELECT 1 FROM "topics"`);
    expect(none).toHaveLength(0);

    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/desk/topics/first-home',
      headers: { cookie: editor.cookie },
      payload: { description: `  ${description}  ` },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().topic).toMatchObject({ description, written: true });
    const topicPage = await page('/topics/first-home');
    expect(topicPage.statusCode).toBe(200);
    expect(topicPage.body).toContain(description);
    expect(topicPage.body).toContain('Renting Your First Flat');
    const { rows: audit } = await t.database.pool.query(
      `SELECT "actorEmail", after FROM audit_log WHERE action = 'topic_describe'`,
    );
    expect(audit).toEqual([{ actorEmail: EDITOR, after: { slug: 'first-home', description } }]);

    // Empty: the page's own sentence again.
    const cleared = await t.app.inject({
      method: 'PUT',
      url: '/api/desk/topics/first-home',
      headers: { cookie: owner.cookie },
      payload: { description: ' ' },
    });
    expect(cleared.json().topic).toMatchObject({
      description: 'Articles and campaigns about first home, newest first.',
      written: false,
    });
    expect((await page('/topics/first-home')).body).not.toContain(description);
  });
});
