import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskCommentList } from '../../../../contract/comments.js';
import { buildMember, buildPost, buildStaff, type Member } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import { comment, eventually, list, posted } from '#test/comment-fixtures';

// The desk's Comments page's API (docs/comments.md#moderation): owners and editors hide, show,
// pin, block; each action is in the audit log; writers and members cannot.

describe('moderating comments from the desk', () => {
  let site: Site;
  let owner: Member;
  let editor: Member;
  let writer: Member;
  beforeAll(async () => {
    site = await withSite({
      mail: true,
      env: {
        STAFF_EMAILS: 'owner@example.com,second-owner@example.com',
        EDITOR_EMAILS: 'editor@example.com,second-editor@example.com',
        WRITER_EMAILS: 'writer@example.com',
      },
    });
    [owner, editor, writer] = await buildStaff(site, 'owner', 'editor', 'writer');
  });
  afterAll(async () => site?.close());

  const deskList = async (who: Member, query = '') => {
    const answer = await site.call(who, 'GET', `/api/desk/comments${query}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as DeskCommentList;
  };
  const act = (who: Member, url: string, payload?: object) =>
    site.call(who, 'POST', `/api/desk${url}`, payload);
  const auditActions = async (targetUserId: string) =>
    (
      await site.database.pool.query<{ action: string; actorEmail: string }>(
        `SELECT action, "actorEmail" FROM audit_log WHERE "targetUserId" = $1 ORDER BY id`,
        [targetUserId],
      )
    ).rows;

  it('lists reported comments first, then the newest, with post, author and text', async () => {
    const post = await buildPost(site, { title: 'On the desk' });
    const ada = await buildMember(site, { paid: true, name: 'Ada D' });
    const bob = await buildMember(site, { paid: true, name: 'Bob D' });
    const first = await posted(site, ada, post.id, 'First words');
    const second = await posted(site, bob, post.id, 'Second words');
    await site.call(bob, 'POST', `/api/comments/${first.id}/reports`, { reason: 'Rude' });

    const { comments } = await deskList(editor);
    const ours = comments.filter((each) => each.post.id === post.id);
    expect(ours.map((each) => each.id)).toEqual([first.id, second.id]);
    expect(ours[0]).toMatchObject({
      post: { id: post.id, title: 'On the desk' },
      author: { userId: ada.userId, name: 'Ada D', email: ada.email, blocked: false },
      body: 'First words',
      html: '<p>First words</p>',
      status: 'visible',
      reports: [{ reason: 'Rude' }],
    });
    const reported = await deskList(owner, '?status=reported');
    expect(reported.comments.map((each) => each.id)).toContain(first.id);
    expect(reported.comments.map((each) => each.id)).not.toContain(second.id);
    expect((await site.call(owner, 'GET', '/api/desk/comments?status=odd')).statusCode).toBe(400);
  });

  it('hides and shows a comment, each in the audit log, and a hidden one leaves the page', async () => {
    const post = await buildPost(site);
    const ada = await buildMember(site, { paid: true, name: 'Ada H' });
    const top = await posted(site, ada, post.id, 'Hide me');
    const hidden = await act(editor, `/comments/${top.id}/hide`);
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json().comment.status).toBe('hidden');
    expect((await list(site, null, post.id)).comments).toEqual([]);
    expect((await list(site, ada, post.id)).count).toBe(0);
    expect((await deskList(owner, '?status=hidden')).comments.map((c) => c.id)).toContain(top.id);

    expect((await act(owner, `/comments/${top.id}/show`)).json().comment.status).toBe('visible');
    expect((await list(site, null, post.id)).count).toBe(1);
    expect(await auditActions(ada.userId)).toEqual([
      { action: 'comment_hide', actorEmail: editor.email },
      { action: 'comment_show', actorEmail: owner.email },
    ]);
  });

  it('pins a top comment first, refuses to pin a reply', async () => {
    const post = await buildPost(site);
    const ada = await buildMember(site, { paid: true, name: 'Ada P' });
    const older = await posted(site, ada, post.id, 'Pin me');
    const newer = await posted(site, ada, post.id, 'Newer');
    const reply = await posted(site, ada, post.id, 'A reply', newer.id);
    expect((await list(site, null, post.id)).comments.map((c) => c.id)).toEqual([
      newer.id,
      older.id,
    ]);
    expect((await act(owner, `/comments/${older.id}/pin`)).json().comment.pinned).toBe(true);
    const pinnedFirst = await list(site, null, post.id);
    expect(pinnedFirst.comments.map((c) => c.id)).toEqual([older.id, newer.id]);
    expect(pinnedFirst.comments[0]?.pinned).toBe(true);
    const onReply = await act(owner, `/comments/${reply.id}/pin`);
    expect(onReply.statusCode).toBe(400);
    expect(onReply.json().error.code).toBe('not_a_top_comment');
    expect((await act(owner, `/comments/${older.id}/unpin`)).json().comment.pinned).toBe(false);
  });

  it('blocks a commenter: the next comment is refused, earlier ones hidden in one step; unblock', async () => {
    const post = await buildPost(site);
    const troll = await buildMember(site, { paid: true, name: 'Troll' });
    await posted(site, troll, post.id, 'One');
    await posted(site, troll, post.id, 'Two');
    const blocked = await act(owner, `/commenters/${troll.userId}/block`, { hideEarlier: true });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(blocked.json()).toEqual({ userId: troll.userId, blocked: true, hidden: 2 });
    expect((await list(site, null, post.id)).count).toBe(0);
    const [earlier] = (await deskList(owner)).comments.filter(
      (c) => c.author.userId === troll.userId,
    );
    const rewrite = await site.call(troll, 'PATCH', `/api/comments/${earlier?.id}`, { body: 'X' });
    expect(rewrite.statusCode).toBe(403);
    const refused = await comment(site, troll, post.id, 'Three');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('blocked');
    expect((await list(site, troll, post.id)).viewer.canComment).toBe(false);

    const unblocked = await act(owner, `/commenters/${troll.userId}/unblock`, {});
    expect(unblocked.json()).toMatchObject({ blocked: false });
    expect((await comment(site, troll, post.id, 'Four')).statusCode).toBe(201);
    expect((await auditActions(troll.userId)).map((row) => row.action)).toEqual([
      'commenter_block',
      'commenter_unblock',
    ]);
    const unknown = await act(owner, `/commenters/00000000-0000-4000-8000-000000000000/block`, {});
    expect(unknown.statusCode).toBe(404);
  });

  it('keeps a blocked member from every comment action but deleting their own', async () => {
    const post = await buildPost(site);
    const ada = await buildMember(site, { paid: true, name: 'Ada B' });
    const troll = await buildMember(site, { paid: true, name: 'Troll B' });
    const theirs = await posted(site, ada, post.id, 'Be kind');
    const [kept, gone] = [
      await posted(site, troll, post.id, 'Kept'),
      await posted(site, troll, post.id, 'Taken down'),
    ];
    expect((await act(editor, `/commenters/${troll.userId}/block`, {})).statusCode).toBe(200);

    const attempts = [
      site.call(troll, 'POST', `/api/comments/${theirs.id}/likes`),
      site.call(troll, 'DELETE', `/api/comments/${theirs.id}/likes`),
      site.call(troll, 'POST', `/api/comments/${theirs.id}/reports`, { reason: 'Float it up' }),
      site.call(troll, 'PATCH', `/api/comments/${kept.id}`, { body: 'Rewritten' }),
      comment(site, troll, post.id, 'A reply', theirs.id),
      comment(site, troll, post.id, 'A new one'),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answer.json().error.code).toBe('blocked');
    }
    expect((await site.call(troll, 'DELETE', `/api/comments/${gone.id}`)).statusCode).toBe(204);
    const seen = await list(site, null, post.id);
    expect(seen.comments.find((each) => each.id === theirs.id)?.likes).toBe(0);
    expect(seen.comments.map((each) => each.html)).toEqual(['<p>Kept</p>', '<p>Be kind</p>']);
    expect((await deskList(owner, '?status=reported')).comments.map((c) => c.id)).not.toContain(
      theirs.id,
    );
    await act(owner, `/commenters/${troll.userId}/unblock`, {});
  });

  it('lets staff block only a lower role: an owner an editor, never an editor an owner or an equal', async () => {
    const [secondOwner, secondEditor] = await buildStaff(site, 'owner', 'editor');
    const refused = [
      [editor, owner],
      [editor, secondEditor],
      [owner, secondOwner],
    ] as const;
    for (const [blocker, target] of refused) {
      const answer = await act(blocker, `/commenters/${target.userId}/block`, {});
      expect(answer.statusCode, `${blocker.email} → ${target.email}`).toBe(403);
      expect(answer.json().error.code).toBe('cannot_block_staff');
    }
    const { rows } = await site.database.pool.query(
      `SELECT count(*)::int AS n FROM comment_blocks WHERE "userId" = ANY($1)`,
      [[owner.userId, secondOwner.userId, secondEditor.userId]],
    );
    expect(rows[0].n).toBe(0);

    const blocked = await act(owner, `/commenters/${secondEditor.userId}/block`, {});
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect((await act(editor, `/commenters/${writer.userId}/block`, {})).statusCode).toBe(200);
    await act(owner, `/commenters/${secondEditor.userId}/unblock`, {});
    await act(owner, `/commenters/${writer.userId}/unblock`, {});
  });

  it('answers a cursor it did not give with 400 invalid_cursor, never a server error', async () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const id = '0190a000-0000-7000-8000-000000000000';
    const tampered = [
      'zzz',
      encode([true, '2026-03-01T12:00:00.000Z']),
      encode(['true', '2026-03-01T12:00:00.000Z', id]),
      encode([false, '2026-03-01', id]),
      encode([false, '2026-03-01T12:00:00.000Z', 'not-a-uuid']),
      encode({ reported: false, createdAt: '2026-03-01T12:00:00.000Z', id }),
    ];
    for (const cursor of tampered) {
      const answer = await site.call(editor, 'GET', `/api/desk/comments?cursor=${cursor}`);
      expect(answer.statusCode, cursor).toBe(400);
      expect(answer.json().error.code, cursor).toBe('invalid_cursor');
    }
    const wellFormed = encode([false, '2026-03-01T12:00:00.000Z', id]);
    expect(
      (await site.call(editor, 'GET', `/api/desk/comments?cursor=${wellFormed}`)).statusCode,
    ).toBe(200);
  });

  it('keeps writers and members out', async () => {
    const post = await buildPost(site);
    const ada = await buildMember(site, { paid: true, name: 'Ada W' });
    const top = await posted(site, ada, post.id, 'Safe');
    expect((await site.call(writer, 'GET', '/api/desk/comments')).statusCode).toBe(403);
    expect((await act(writer, `/comments/${top.id}/hide`)).statusCode).toBe(403);
    expect((await site.call(ada, 'GET', '/api/desk/comments')).statusCode).toBe(404);
    expect((await act(ada, `/comments/${top.id}/hide`)).statusCode).toBe(404);
    expect((await list(site, null, post.id)).count).toBe(1);
  });

  it('mails staff who chose every comment, once a comment, never their own', async () => {
    const choice = await site.call(owner, 'PUT', '/api/desk/comment-mail', {
      onEveryComment: true,
    });
    expect(choice.json()).toEqual({ onEveryComment: true });
    expect((await site.call(owner, 'GET', '/api/desk/comment-mail')).json()).toEqual({
      onEveryComment: true,
    });
    const post = await buildPost(site, { title: 'Watched' });
    const ada = await buildMember(site, { paid: true, name: 'Ada M' });
    const top = await posted(site, ada, post.id, 'Hello staff');
    const box = site.mailbox;
    expect(
      await eventually(() =>
        box.mailsTo(owner.email).some((mail) => mail.subject.includes('Watched')),
      ),
    ).toBe(true);
    const mails = box.mailsTo(owner.email).filter((mail) => mail.subject.includes('Watched'));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('New comment on “Watched” from Ada M');
    expect(mails[0]?.text).toContain(`#comment-${top.id}`);
    expect(box.mailsTo(editor.email)).toHaveLength(0);
    await site.call(owner, 'PUT', '/api/desk/comment-mail', { onEveryComment: false });
  });
});
