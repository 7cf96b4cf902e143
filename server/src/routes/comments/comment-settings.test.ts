import { describe, expect, it } from 'vitest';
import { withTransaction } from '../../db/transaction.js';
import { storeImportedComment } from '../../comments/imported-comments.js';
import { useSite, useTwoServers } from '#test/with-site';
import { buildComment, buildMember, buildPost } from '#test/factories';
import { comment, list, posted } from '#test/comment-fixtures';

// What the operator's settings change (COMMENTS, COMMENTS_HOLD_FIRST_LINK: docs/comments.md), the
// pace limit across two app servers, and comments brought by an import.

describe('COMMENTS=off', () => {
  const site = useSite({ env: { COMMENTS: 'off', STAFF_EMAILS: 'muted-owner@example.com' } });

  it('lists nothing and refuses every comment, like and report with 403', async () => {
    const post = await buildPost(site);
    const member = await buildMember(site, { paid: true, name: 'Muted' });
    const before = (await buildComment(site, { post, by: member, body: 'Before' })).id;
    const seen = await list(site, member, post.id);
    expect(seen).toMatchObject({ count: 0, comments: [], nextCursor: null });
    expect(seen.viewer.canComment).toBe(false);
    const refused = await comment(site, member, post.id, 'Hello');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('comments_off');
    expect((await comment(site, null, post.id, 'Hello')).statusCode).toBe(403);
    expect((await site.call(member, 'POST', `/api/comments/${before}/likes`)).statusCode).toBe(403);
    const report = await site.call(member, 'POST', `/api/comments/${before}/reports`, {
      reason: 'Old',
    });
    expect(report.statusCode).toBe(403);
  });
});

describe('COMMENTS=everyone with COMMENTS_HOLD_FIRST_LINK=on', () => {
  const site = useSite({
    env: {
      COMMENTS: 'everyone',
      COMMENTS_HOLD_FIRST_LINK: 'on',
      // The first writes the posts; the boss is made by the test that needs one.
      STAFF_EMAILS: 'writing-owner@example.com,boss@example.com',
    },
  });

  it('lets any account with a proven address comment, not an unproven one', async () => {
    const post = await buildPost(site);
    const reader = await buildMember(site, { name: 'Free Reader' });
    expect((await comment(site, reader, post.id, 'No link here')).statusCode).toBe(201);
    await site.database.pool.query(`UPDATE users SET "emailVerifiedAt" = NULL WHERE id = $1`, [
      reader.userId,
    ]);
    const unproven = await comment(site, reader, post.id, 'Again');
    expect(unproven.statusCode).toBe(403);
    expect(unproven.json().error.code).toBe('unproven_address');
  });

  it('holds a new account’s first comment with a link for its author alone until staff show it', async () => {
    const post = await buildPost(site);
    const newcomer = await buildMember(site, { name: 'Newcomer' });
    const held = await posted(site, newcomer, post.id, 'Cheap pills at https://spam.example');
    expect(held.pending).toBe(true);
    expect((await list(site, null, post.id)).comments).toEqual([]);
    expect((await list(site, newcomer, post.id)).comments.map((c) => c.id)).toEqual([held.id]);

    const [boss] = await Promise.all([
      buildMember(site, { paid: true, name: 'Boss', role: 'owner' }),
    ]);
    const pending = await site.call(boss, 'GET', '/api/desk/comments?status=pending');
    expect(pending.json().comments.map((c: { id: string }) => c.id)).toEqual([held.id]);
    const shown = await site.call(boss, 'POST', `/api/desk/comments/${held.id}/show`);
    expect(shown.json().comment.status).toBe('visible');
    expect((await list(site, null, post.id)).count).toBe(1);

    // Once one comment of theirs is visible, links are no longer held.
    const next = await posted(site, newcomer, post.id, 'More at https://example.org/more');
    expect(next.pending).toBe(false);
  });
});

describe('two app servers on one database', () => {
  const [a, b] = useTwoServers({ env: { STAFF_EMAILS: 'two-servers-owner@example.com' } }, {});

  it('holds the pace limit across both: 5 a minute in all', async (context) => {
    if (a.testDatabase.embedded) context.skip('the embedded test database serves one app');
    const post = await buildPost(a);
    const member = await buildMember(a, { paid: true, name: 'Two Servers' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        comment(index % 2 === 0 ? a : b, member, post.id, `Number ${index}`),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  });

  it('stores an imported guest comment with its date and thread, once however often imported', async () => {
    const post = await buildPost(a);
    const when = new Date('2019-05-04T10:00:00.000Z');
    const store = () =>
      withTransaction(a.database.pool, async (tx) => {
        const top = await storeImportedComment(tx, {
          postId: post.id,
          sourceId: `wordpress:test:${post.id}:1`,
          parentSourceId: null,
          guestName: 'Old Reader',
          body: 'From **WordPress**',
          createdAt: when,
        });
        const reply = await storeImportedComment(tx, {
          postId: post.id,
          sourceId: `wordpress:test:${post.id}:2`,
          parentSourceId: `wordpress:test:${post.id}:1`,
          guestName: 'Another',
          body: 'Agreed',
          createdAt: new Date(when.getTime() + 60_000),
        });
        return { top, reply };
      });
    const first = await store();
    expect(first.top.created && first.reply.created).toBe(true);
    const again = await store();
    expect(again).toEqual({
      top: { id: first.top.id, created: false },
      reply: { id: first.reply.id, created: false },
    });
    const seen = await list(b, null, post.id);
    expect(seen.count).toBe(2);
    expect(seen.comments[0]).toMatchObject({
      id: first.top.id,
      author: { name: 'Old Reader' },
      html: '<p>From <strong>WordPress</strong></p>',
      createdAt: when.toISOString(),
      replies: [{ id: first.reply.id, author: { name: 'Another' }, parentId: first.top.id }],
    });
  });

  it('imports a comment nested past the limit as its text, and cleans a guest’s name', async () => {
    const post = await buildPost(a);
    const deep = `${'>'.repeat(20_000)} x`;
    const stored = await withTransaction(a.database.pool, (tx) =>
      storeImportedComment(tx, {
        postId: post.id,
        sourceId: `wordpress:test:${post.id}:deep`,
        parentSourceId: null,
        guestName: 'Eve\u202e gnp.exe\u200b',
        body: deep,
        createdAt: new Date('2019-05-04T10:00:00.000Z'),
      }),
    );
    expect(stored.created).toBe(true);
    const [shown] = (await list(a, null, post.id)).comments;
    expect(shown?.author.name).toBe('Eve gnp.exe');
    expect(shown?.html.startsWith(`<p>${'>'.repeat(1_000)}`)).toBe(true);
    expect(shown?.html).not.toContain('<blockquote>');
  });
});
