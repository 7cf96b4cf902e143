import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment } from '../../../../contract/comments.js';
import { buildComment, buildMember, buildPost } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import { comment, eventually, list, posted } from '#test/comment-fixtures';

// Members talk under posts (docs/comments.md): reading, writing, replies and their mail, edits,
// deletes, likes, reports, names, and what a hostile comment, a deeply nested one or a flood gets.

/** The site on a real port (once), for calls that must run at the same time: its address. */
async function listening(site: Site): Promise<string> {
  if (!site.app.server.listening) await site.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(site.app.server.address() as AddressInfo).port}`;
}

describe('comments under a post', () => {
  let site: Site;
  beforeAll(async () => {
    site = await withSite({
      mail: true,
      env: { SITE_URL: 'https://members.example.org', STAFF_EMAILS: 'comments-owner@example.com' },
    });
  });
  afterAll(async () => site?.close());

  it('a member comments and a visitor reads it with the author’s name and the count', async () => {
    const post = await buildPost(site);
    const ada = await buildMember(site, { paid: true, name: 'Ada Lovelace' });
    const mine = await posted(site, ada, post.id, 'Organise the **whole** street.');
    expect(mine).toMatchObject({
      parentId: null,
      author: { name: 'Ada Lovelace' },
      html: '<p>Organise the <strong>whole</strong> street.</p>',
      deleted: false,
      likes: 0,
      mine: true,
      // Its author gets the Markdown as written, to edit; nobody else does.
      body: 'Organise the **whole** street.',
      pending: false,
      replies: [],
    });
    const asOthersSeeIt = { ...mine, mine: false };
    delete asOthersSeeIt.body;

    const seen = await list(site, null, post.id);
    expect(seen.count).toBe(1);
    expect(seen.nextCursor).toBeNull();
    expect(seen.viewer).toEqual({ signedIn: false, canComment: false, name: null });
    expect(seen.comments).toEqual([asOthersSeeIt]);
    expect((await list(site, ada, post.id)).viewer).toEqual({
      signedIn: true,
      canComment: true,
      name: 'Ada Lovelace',
    });
  });

  it('refuses visitors (401), accounts that are not members (403), nameless members (409) and bad bodies (400)', async () => {
    const post = await buildPost(site);
    const visitor = await comment(site, null, post.id, 'Hello');
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().error.code).toBe('unauthenticated');

    const reader = await buildMember(site, { name: 'Not Paying' });
    const refused = await comment(site, reader, post.id, 'Hello');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('not_a_member');
    expect((await list(site, reader, post.id)).viewer.canComment).toBe(false);

    const nameless = await buildMember(site, { paid: true });
    const noName = await comment(site, nameless, post.id, 'Hello');
    expect(noName.statusCode).toBe(409);
    expect(noName.json().error.code).toBe('name_required');
    for (const name of ['', '   ', 'x'.repeat(61), '\u202e\u200b\u0007']) {
      const wrong = await site.call(nameless, 'PATCH', '/api/account/profile', { name });
      expect(wrong.statusCode, name).toBe(400);
      expect(wrong.json().error.code).toBe('invalid_name');
    }
    const sixty = await site.call(nameless, 'PATCH', '/api/account/profile', {
      name: `  ${'y'.repeat(60)}  `,
    });
    expect(sixty.json()).toEqual({ name: 'y'.repeat(60) });

    const member = await buildMember(site, { paid: true, name: 'Grace' });
    for (const [body, code] of [
      ['   \n ', 'comment_empty'],
      ['x'.repeat(5001), 'comment_too_long'],
    ] as const) {
      const answer = await comment(site, member, post.id, body);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error.code).toBe(code);
    }
    expect((await comment(site, member, post.id, 'x'.repeat(5000))).statusCode).toBe(201);
    const notJson = await site.call(member, 'POST', `/api/posts/${post.id}/comments`, {
      body: 42,
    });
    expect(notJson.statusCode).toBe(400);
    const nowhere = await comment(site, member, 999_999, 'Hello');
    expect(nowhere.statusCode).toBe(404);
    const { rows } = await site.database.pool.query(
      `SELECT count(*)::int AS n FROM comments WHERE "postId" = $1`,
      [post.id],
    );
    expect(rows[0].n).toBe(1);
  });

  it('cleans a name of direction overrides, invisible and control characters instead of refusing it', async () => {
    const member = await buildMember(site, { paid: true });
    const named = await site.call(member, 'PATCH', '/api/account/profile', {
      name: ' Ada\u202e Love\u200blace\u0007 ',
    });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json()).toEqual({ name: 'Ada Lovelace' });
    const { rows } = await site.database.pool.query(`SELECT name FROM users WHERE id = $1`, [
      member.userId,
    ]);
    expect(rows[0].name).toBe('Ada Lovelace');
  });

  it('renders script, handlers, javascript: and data: links, images and iframes inert', async () => {
    const post = await buildPost(site);
    const member = await buildMember(site, { paid: true, name: 'Mallory' });
    const hostile = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(2)">',
      '<iframe src="https://evil.example"></iframe>',
      '<a href="javascript:alert(3)" onclick="alert(4)">click</a>',
      '[link](javascript:alert(5)) [data](data:text/html;base64,PHNjcmlwdD4=)',
      '![tracker](https://evil.example/pixel.png)',
      '<javascript:alert(6)> <https://fine.example/path>',
      '<svg onload=alert(7)><style>body{display:none}</style>',
      '[ok](https://fine.example "title") and <b onmouseover=alert(8)>bold</b>',
    ].join('\n\n');
    const { html } = await posted(site, member, post.id, hostile);
    expect(html).not.toMatch(/<script|<img|<iframe|<svg|<style|<object|<embed/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/javascript:[^<]*"|href="data:|href="javascript/i);
    expect(html).not.toContain('pixel.png');
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]);
    expect(hrefs).toEqual(['https://fine.example/path', 'https://fine.example']);
    expect(html.match(/<a /g)).toHaveLength(2);
    expect(html.match(/rel="ugc nofollow noopener"/g)).toHaveLength(2);
    // What the reader sees of it is only words.
    expect((await list(site, null, post.id)).comments[0]?.html).toBe(html);
  });

  it('nests a reply to a reply in its thread and mails the answered author once, never the replier', async () => {
    const post = await buildPost(site, { title: 'Rent strikes' });
    const ada = await buildMember(site, { paid: true, name: 'Ada' });
    const bob = await buildMember(site, { paid: true, name: 'Bob' });
    const top = await posted(site, ada, post.id, 'Who is in?');
    const reply = await posted(site, bob, post.id, 'Me.', top.id);
    expect(reply.parentId).toBe(top.id);
    const replyToReply = await posted(site, ada, post.id, 'Great, Bob.', reply.id);
    expect(replyToReply.parentId).toBe(top.id);
    const selfReply = await posted(site, ada, post.id, 'And me again.', top.id);

    const seen = await list(site, null, post.id);
    expect(seen.count).toBe(4);
    expect(seen.comments).toHaveLength(1);
    expect(seen.comments[0]?.replies.map((each) => each.id)).toEqual([
      reply.id,
      replyToReply.id,
      selfReply.id,
    ]);

    // Ada was answered by Bob (one mail); Bob was answered by Ada (one mail). Ada's own replies
    // to her comment mail nobody.
    const box = site.mailbox;
    expect(await eventually(() => box.mailsTo(ada.email).length >= 1)).toBe(true);
    expect(await eventually(() => box.mailsTo(bob.email).length >= 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const toAda = box.mailsTo(ada.email);
    expect(toAda).toHaveLength(1);
    expect(box.mailsTo(bob.email)).toHaveLength(1);
    const mail = toAda[0];
    expect(mail?.subject).toBe('Bob replied to your comment on “Rent strikes”');
    expect(mail?.text).toContain(`https://members.example.org${post.path}#comment-${reply.id}`);
    expect(mail?.text).toContain('> Me.');
    const stop = mail?.headers.get('list-unsubscribe') ?? '';
    expect(mail?.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const stopUrl = /^<(https:\/\/members\.example\.org\/[^>]+)>$/.exec(stop)?.[1] ?? '';
    expect(mail?.text).toContain(stopUrl);
    const { rows } = await site.database.pool.query(
      `SELECT "state", count(*)::int AS n FROM comment_mails
        WHERE "commentId" = ANY($1) GROUP BY 1`,
      [[reply.id, replyToReply.id, selfReply.id]],
    );
    expect(rows).toEqual([{ state: 'sent', n: 2 }]);

    // The stop link: its page asks, its one-click POST stops, and the next reply mails nobody.
    const path = stopUrl.replace('https://members.example.org', '');
    const page = await site.call(null, 'GET', path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    const oneClick = await site.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('no more mails about replies');
    const forged = await site.call(null, 'POST', `${path.replace(/.{4}$/, 'AAAA')}`, {});
    expect(forged.statusCode).toBe(400);
    const after = await posted(site, bob, post.id, 'Still here.', top.id);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(box.mailsTo(ada.email)).toHaveLength(1);
    const skipped = await site.database.pool.query(
      `SELECT count(*)::int AS n FROM comment_mails WHERE "commentId" = $1`,
      [after.id],
    );
    expect(skipped.rows[0].n).toBe(0);
  });

  it('lets the author edit (shown edited) and delete: a placeholder with replies, gone without', async () => {
    const post = await buildPost(site);
    const ada = await buildMember(site, { paid: true, name: 'Ada E' });
    const bob = await buildMember(site, { paid: true, name: 'Bob E' });
    const top = await posted(site, ada, post.id, 'Frist');
    const edited = await site.call(ada, 'PATCH', `/api/comments/${top.id}`, { body: 'First' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().comment).toMatchObject({ html: '<p>First</p>', mine: true });
    expect(edited.json().comment.editedAt).not.toBeNull();

    for (const [method, payload] of [
      ['PATCH', { body: 'Mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const other = await site.call(bob, method, `/api/comments/${top.id}`, payload);
      expect(other.statusCode).toBe(404);
    }
    const reply = await posted(site, bob, post.id, 'Answer', top.id);
    expect((await site.call(ada, 'DELETE', `/api/comments/${top.id}`)).statusCode).toBe(204);
    let seen = await list(site, null, post.id);
    expect(seen.count).toBe(1);
    expect(seen.comments[0]).toMatchObject({
      id: top.id,
      deleted: true,
      html: '',
      author: { name: '' },
    });
    expect(seen.comments[0]?.replies.map((each: Comment) => each.id)).toEqual([reply.id]);
    const stored = await site.database.pool.query(`SELECT body FROM comments WHERE id = $1`, [
      top.id,
    ]);
    expect(stored.rows[0].body).toBe('');

    // The reply deleted too: the placeholder has nothing left to hold.
    expect((await site.call(bob, 'DELETE', `/api/comments/${reply.id}`)).statusCode).toBe(204);
    seen = await list(site, null, post.id);
    expect(seen).toMatchObject({ count: 0, comments: [] });
    const alone = await posted(site, bob, post.id, 'Alone');
    expect((await site.call(bob, 'DELETE', `/api/comments/${alone.id}`)).statusCode).toBe(204);
    const gone = await site.database.pool.query(`SELECT 1 FROM comments WHERE id = $1`, [alone.id]);
    expect(gone.rows).toHaveLength(0);
  });

  it('counts a like once per member, takes it back, and takes a report with 202', async () => {
    const post = await buildPost(site);
    const ada = await buildMember(site, { paid: true, name: 'Ada L' });
    const bob = await buildMember(site, { paid: true, name: 'Bob L' });
    const top = await posted(site, ada, post.id, 'Like me');
    const url = `/api/comments/${top.id}/likes`;
    expect((await site.call(bob, 'POST', url)).json()).toEqual({ likes: 1, likedByMe: true });
    expect((await site.call(bob, 'POST', url)).json()).toEqual({ likes: 1, likedByMe: true });
    expect((await site.call(ada, 'POST', url)).json()).toEqual({ likes: 2, likedByMe: true });
    expect((await list(site, bob, post.id)).comments[0]).toMatchObject({
      likes: 2,
      likedByMe: true,
    });
    expect((await site.call(bob, 'DELETE', url)).json()).toEqual({ likes: 1, likedByMe: false });
    expect((await site.call(bob, 'DELETE', url)).json()).toEqual({ likes: 1, likedByMe: false });
    expect((await site.call(null, 'POST', url)).statusCode).toBe(401);

    const report = await site.call(bob, 'POST', `/api/comments/${top.id}/reports`, {
      reason: 'Spam',
    });
    expect(report.statusCode).toBe(202);
    expect(
      (await site.call(bob, 'POST', `/api/comments/${top.id}/reports`, { reason: '' })).statusCode,
    ).toBe(400);
    const { rows } = await site.database.pool.query(
      `SELECT reason FROM comment_reports WHERE "commentId" = $1`,
      [top.id],
    );
    expect(rows).toEqual([{ reason: 'Spam' }]);
  });

  it('sorts by best, newest and oldest, and pages with a cursor', async () => {
    const post = await buildPost(site);
    const ada = await buildMember(site, { paid: true, name: 'Ada S' });
    const ids: string[] = [];
    for (const [index, body] of ['one', 'two', 'three'].entries()) {
      await buildComment(site, {
        post,
        by: ada,
        body,
        html: body,
        likes: index === 1 ? 5 : 0,
        createdAt: new Date(Date.now() - (10 - index) * 60_000),
      });
    }
    const oldest = await list(site, null, post.id, '?sort=oldest');
    ids.push(...oldest.comments.map((each) => each.html));
    expect(ids).toEqual(['one', 'two', 'three']);
    expect((await list(site, null, post.id, '?sort=newest')).comments.map((c) => c.html)).toEqual([
      'three',
      'two',
      'one',
    ]);
    expect((await list(site, null, post.id, '?sort=best')).comments[0]?.html).toBe('two');
    // 25 more: pages of 20 follow one another by cursor, in each sort, without a gap or a repeat.
    await site.database.pool.query(
      `INSERT INTO comments (id, "postId", "userId", body, html, likes, "createdAt")
       SELECT gen_random_uuid(), $1, $2, 'more', 'more', n % 4, now() - make_interval(secs => n)
         FROM generate_series(1, 25) n`,
      [post.id, ada.userId],
    );
    for (const sort of ['newest', 'oldest', 'best']) {
      const first = await list(site, null, post.id, `?sort=${sort}`);
      expect(first.comments).toHaveLength(20);
      expect(first.nextCursor).not.toBeNull();
      const second = await list(
        site,
        null,
        post.id,
        `?sort=${sort}&cursor=${first.nextCursor ?? ''}`,
      );
      expect(second.comments).toHaveLength(8);
      expect(second.nextCursor).toBeNull();
      const seen = [...first.comments, ...second.comments].map((each) => each.id);
      expect(new Set(seen).size, sort).toBe(28);
    }
    const wrong = await site.call(null, 'GET', `/api/posts/${post.id}/comments?sort=loudest`);
    expect(wrong.statusCode).toBe(400);
    const badCursor = await site.call(null, 'GET', `/api/posts/${post.id}/comments?cursor=zzz`);
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().error.code).toBe('invalid_cursor');
  });

  it('refuses a sixth comment in a minute with 429 and Retry-After while the site keeps answering, and a duplicate', async () => {
    const post = await buildPost(site);
    const member = await buildMember(site, { paid: true, name: 'Flood' });
    const duplicate = await posted(site, member, post.id, 'Same words');
    const again = await comment(site, member, post.id, 'Same words');
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('duplicate_comment');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => comment(site, member, post.id, `Flood ${index}`)),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(4);
    const limited = answers.find((answer) => answer.statusCode === 429);
    expect(limited?.json().error.code).toBe('too_many_comments');
    const wait = Number(limited?.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect((await site.call(null, 'GET', '/healthz')).statusCode).toBe(200);
    expect((await list(site, null, post.id)).count).toBe(5);
    expect(duplicate.id).toBeDefined();
  });

  it('refuses a 5,000-deep quote with a 400 at once while /healthz keeps answering', async () => {
    const post = await buildPost(site);
    const member = await buildMember(site, { paid: true, name: 'Deep' });
    const base = await listening(site);
    const deep = `${'>'.repeat(4_998)} x`;
    const started = Date.now();
    const [posting, health] = await Promise.all([
      fetch(`${base}/api/posts/${post.id}/comments`, {
        method: 'POST',
        headers: { cookie: member.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ body: deep }),
      }),
      fetch(`${base}/healthz`),
    ]);
    const refused = (await posting.json()) as { error: { code: string; message: string } };
    expect(posting.status, JSON.stringify(refused)).toBe(400);
    expect(refused.error.code).toBe('comment_too_deep');
    expect(refused.error.message).toContain('5 deep');
    // Generous: a refusal before the Markdown parser takes milliseconds; parsing took seconds.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(health.status).toBe(200);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await list(site, null, post.id)).count).toBe(0);
  });

  it('takes quotes nested 5 deep and lists 10 deep, and refuses one level more, however nested', async () => {
    const post = await buildPost(site);
    const atLimit = [
      '> > > > > Five quotes',
      `${'- '.repeat(10)}Ten lists`,
      `${'1. '.repeat(10)}Ten numbered lists`,
      Array.from({ length: 10 }, (_, level) => `${'  '.repeat(level)}- level ${level + 1}`).join(
        '\n',
      ),
      '> - > - > - > - > - Five of each',
      `${'*'.repeat(20)}Ten strong emphases${'*'.repeat(20)}`,
    ];
    for (const [index, body] of atLimit.entries()) {
      const member = await buildMember(site, { paid: true, name: `Nested ${index}` });
      const answer = await comment(site, member, post.id, body);
      expect(answer.statusCode, `${body}: ${answer.body}`).toBe(201);
    }
    const fiveQuotes = (await list(site, null, post.id)).comments.find((each) =>
      each.html.includes('Five quotes'),
    );
    expect(fiveQuotes?.html.match(/<blockquote>/g)).toHaveLength(5);
    const tooDeep = [
      '> > > > > > Six quotes',
      '>>>>>> Six quotes',
      `${'- '.repeat(11)}Eleven lists`,
      `${'* '.repeat(11)}Eleven lists`,
      `${'1) '.repeat(11)}Eleven numbered lists`,
      `${'-\t'.repeat(11)}Eleven lists`,
      Array.from({ length: 11 }, (_, level) => `${'  '.repeat(level)}- level ${level + 1}`).join(
        '\n',
      ),
      ['- a', '  - b', '    - c', '      - d', '        - - - - - - - eleven'].join('\n'),
      `${'*'.repeat(2_400)}Deep emphasis${'*'.repeat(2_400)}`,
    ];
    for (const [index, body] of tooDeep.entries()) {
      const member = await buildMember(site, { paid: true, name: `Too Nested ${index}` });
      const answer = await comment(site, member, post.id, body);
      expect(answer.statusCode, `${body.slice(0, 60)}: ${answer.body}`).toBe(400);
      expect(answer.json().error.code).toBe('comment_too_deep');
    }
    expect((await list(site, null, post.id)).count).toBe(atLimit.length);
  });

  it('counts refused comments against the pace: after five a minute the next is 429, and an edit is refused too', async () => {
    const post = await buildPost(site);
    const member = await buildMember(site, { paid: true, name: 'Hammer' });
    const mine = await posted(site, member, post.id, 'A fine comment');
    const deepEdit = await site.call(member, 'PATCH', `/api/comments/${mine.id}`, {
      body: '>'.repeat(5_000),
    });
    expect(deepEdit.statusCode).toBe(400);
    expect(deepEdit.json().error.code).toBe('comment_too_deep');
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const refused = await comment(site, member, post.id, `${'> '.repeat(100 + attempt)}x`);
      expect(refused.statusCode).toBe(400);
    }
    const limited = await comment(site, member, post.id, 'Fine again');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('too_many_comments');
    const seen = await list(site, member, post.id);
    expect(seen.comments.map((each) => each.body)).toEqual(['A fine comment']);
    const stored = await site.database.pool.query(
      `SELECT count(*)::int AS n FROM comments WHERE "postId" = $1`,
      [post.id],
    );
    expect(stored.rows[0].n).toBe(1);
    // Each refusal is a row of its own, nothing of the comment in it.
    const refusals = await site.database.pool.query(
      `SELECT count(*)::int AS n FROM comment_refusals WHERE "userId" = $1`,
      [member.userId],
    );
    expect(refusals.rows[0].n).toBe(4);
  });

  it('keeps a members-only post’s comments for those who may read its body', async () => {
    const post = await buildPost(site, { visibility: 'members' });
    const member = await buildMember(site, { paid: true, name: 'Inside' });
    await posted(site, member, post.id, 'For us');
    const reader = await buildMember(site, { name: 'Outside' });
    for (const who of [null, reader]) {
      const answer = await site.call(who, 'GET', `/api/posts/${post.id}/comments`);
      expect(answer.statusCode).toBe(404);
      expect(answer.body).not.toContain('For us');
    }
    expect((await list(site, member, post.id)).count).toBe(1);
  });
});
