import { describe, expect, it } from 'vitest';
import { buildPost, type PostOverrides } from '#test/factories';
import { useDeskPostsSite } from '#test/desk-posts-site';
import type { PostJson } from '../../../../contract/posts.js';
import { TRASH_DAYS } from '../../../../contract/post-bulk.js';

// Many posts at once (POST /api/desk/posts/bulk, docs/desk.md): each post by its single route's
// rules, the Trash deleted posts go to (410 while there, restored as they were, purged after
// TRASH_DAYS by the job queue's purge), and bodies that change nothing.

const DAY_MS = 24 * 60 * 60 * 1000;
const BULK = '/api/desk/posts/bulk';

describe('the desk’s posts: many at once, and the Trash', () => {
  const { t, call, page, owner, editor, writer } = useDeskPostsSite();

  /** `count` posts by the owner (articles in Wealth unless `overrides` say), made ten at a time. */
  async function makePosts(count: number, overrides: PostOverrides = {}): Promise<PostJson[]> {
    const posts: PostJson[] = [];
    for (let start = 0; start < count; start += 10) {
      const batch = Array.from({ length: Math.min(10, count - start) }, () =>
        buildPost(t, { by: owner, ...overrides }),
      );
      posts.push(...(await Promise.all(batch)));
    }
    return posts;
  }

  /** The posts' rows as they are now, by id. */
  async function rows(ids: number[]) {
    const { rows: found } = await t.database.pool.query<{
      id: number;
      status: string;
      version: number;
      category: string | null;
      visibility: string;
      tags: string[] | null;
      deletedAt: Date | null;
    }>(
      `SELECT "id", "status", "version", "fields"->>'category' AS category, "visibility",
          ARRAY(SELECT jsonb_array_elements_text(coalesce("fields"->'tags', '[]'))) AS tags,
          "deletedAt"
        FROM "posts" WHERE "id" = ANY($1::int[]) ORDER BY "id"`,
      [ids],
    );
    return found;
  }

  const idsOf = (posts: PostJson[]) => posts.map((post) => post.id);

  it('unpublishes 50 posts at once, each as the Unpublish button would, and their addresses answer 410', async () => {
    const posts = await makePosts(50);
    const draft = await buildPost(t, { by: owner, status: 'draft' });
    const started = performance.now();
    const answer = await call(owner, 'POST', BULK, {
      ids: [...idsOf(posts), draft.id],
      action: 'unpublish',
    });
    const ms = performance.now() - started;
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      done: 50,
      skipped: [{ id: draft.id, reason: 'This post is a draft already.' }],
    });
    console.info(`bulk unpublish of 50 posts: ${Math.round(ms)} ms`);

    expect(new Set((await rows(idsOf(posts))).map((row) => row.status))).toEqual(
      new Set(['draft']),
    );
    // The answer left once this server drew the change: every address is gone at once.
    for (const post of [posts[0], posts[49]]) {
      expect((await page(post?.path ?? '/')).statusCode).toBe(410);
    }
    const { rows: audit } = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM audit_log
        WHERE action = 'post_unpublish' AND (before->>'id')::int = ANY($1::int[])`,
      [idsOf(posts)],
    );
    expect(audit[0].n).toBe(50);
  });

  it('moves 50 articles to another section, their old addresses leading to the new; a campaign stays', async () => {
    const posts = await makePosts(50);
    const campaign = await buildPost(t, {
      kind: 'campaign',
      title: 'Keep the Library',
      status: 'draft',
    });
    const started = performance.now();
    const answer = await call(owner, 'POST', BULK, {
      ids: [...idsOf(posts), campaign.id],
      action: 'move',
      section: 'health',
    });
    console.info(`bulk move of 50 posts: ${Math.round(performance.now() - started)} ms`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      done: 50,
      skipped: [
        { id: campaign.id, reason: 'This is a campaign: only articles move between sections.' },
      ],
    });
    expect(new Set((await rows(idsOf(posts))).map((row) => row.category))).toEqual(
      new Set(['Health']),
    );
    const first = posts[0] as PostJson;
    const moved = (await call(owner, 'GET', `/api/desk/posts/${first.id}`)).json().post;
    expect(moved.path).toBe(`/health/${first.slug}`);
    expect((await page(moved.path)).statusCode).toBe(200);
    const old = await page(first.path);
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe(moved.path);

    // Into a section of campaigns, or where they are already: skipped, each with why.
    const again = await call(owner, 'POST', BULK, {
      ids: [first.id],
      action: 'move',
      section: 'direct-action',
    });
    expect(again.json()).toEqual({
      done: 0,
      skipped: [{ id: first.id, reason: 'Direct Action lists campaigns, not articles.' }],
    });
    const there = await call(owner, 'POST', BULK, {
      ids: [first.id],
      action: 'move',
      section: 'health',
    });
    expect(there.json().skipped).toEqual([{ id: first.id, reason: 'Already in Health.' }]);
  });

  it('deletes to the Trash, which lists them with when, then restores each post as it was', async () => {
    const live = await buildPost(t, { by: owner });
    const draft = await buildPost(t, { by: owner, status: 'draft' });
    const at = new Date(Date.now() + 3 * DAY_MS).toISOString();
    const scheduled = await buildPost(t, { by: owner, status: 'scheduled', at });
    const ids = [live.id, draft.id, scheduled.id];

    const deleted = await call(owner, 'POST', BULK, { ids, action: 'delete' });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ done: 3, skipped: [] });
    expect((await page(live.path)).statusCode).toBe(410);
    expect((await page(scheduled.path)).statusCode).toBe(410);
    expect((await call(owner, 'GET', `/api/desk/posts/${live.id}`)).statusCode).toBe(404);

    const listed = (await call(owner, 'GET', '/api/desk/posts?status=deleted&limit=500')).json()
      .posts as PostJson[];
    const inTrash = listed.filter((post) => ids.includes(post.id));
    expect(inTrash).toHaveLength(3);
    for (const post of inTrash) {
      expect(Date.now() - Date.parse(post.deletedAt ?? '')).toBeLessThan(60_000);
    }
    const everyday = (await call(owner, 'GET', '/api/desk/posts?limit=500')).json()
      .posts as PostJson[];
    expect(everyday.map((post) => post.id)).not.toContain(live.id);
    // A second delete finds them in the Trash already.
    const twice = await call(owner, 'POST', BULK, { ids: [draft.id], action: 'delete' });
    expect(twice.json().skipped).toEqual([{ id: draft.id, reason: 'Already in the Trash.' }]);

    const restored = await call(owner, 'POST', BULK, { ids, action: 'restore' });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toEqual({ done: 3, skipped: [] });
    expect(
      (await rows(ids)).map(({ id, status, deletedAt }) => ({ id, status, deletedAt })),
    ).toEqual([
      { id: live.id, status: 'published', deletedAt: null },
      { id: draft.id, status: 'draft', deletedAt: null },
      { id: scheduled.id, status: 'scheduled', deletedAt: null },
    ]);
    const back = (await call(owner, 'GET', `/api/desk/posts/${live.id}`)).json().post;
    expect(back.publishedAt).toBe(live.publishedAt);
    expect((await page(live.path)).statusCode).toBe(200);
    // The scheduled one has its job again, for its time.
    const { rows: jobs } = await t.database.pool.query(
      `SELECT 1 FROM pgboss.job WHERE name = 'publish-scheduled-posts'
          AND (data->>'postId')::int = $1 AND start_after = $2 AND state = 'created'`,
      [scheduled.id, at],
    );
    expect(jobs.length).toBeGreaterThanOrEqual(1);

    const { rows: audit } = await t.database.pool.query(
      `SELECT action, count(*)::int AS n FROM audit_log
        WHERE action IN ('post_delete', 'post_untrash') AND (before->>'id')::int = ANY($1::int[])
        GROUP BY action ORDER BY action`,
      [ids],
    );
    expect(audit).toEqual([
      { action: 'post_delete', n: 3 },
      { action: 'post_untrash', n: 3 },
    ]);
    const notThere = await call(owner, 'POST', BULK, { ids: [draft.id], action: 'restore' });
    expect(notThere.json().skipped).toEqual([{ id: draft.id, reason: 'Not in the Trash.' }]);
  });

  it('skips a writer’s and an editor’s action on what their single routes refuse them, changing nothing', async () => {
    const posts = await makePosts(2);
    const ids = idsOf(posts);
    const before = await rows(ids);
    const expectSkipped = async (who: typeof writer, body: object, reason: string) => {
      const answer = await call(who, 'POST', BULK, { ids, ...body });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual({ done: 0, skipped: ids.map((id) => ({ id, reason })) });
    };
    await expectSkipped(
      writer,
      { action: 'unpublish' },
      'Writers submit drafts; an editor or an owner publishes them.',
    );
    await expectSkipped(
      writer,
      { action: 'delete' },
      'This is for owners (STAFF_EMAILS) only: ask an owner to do it.',
    );
    await expectSkipped(
      writer,
      { action: 'visibility', visibility: 'members' },
      'Writers edit drafts: ask an editor to change a published or scheduled post.',
    );
    await expectSkipped(
      editor,
      { action: 'delete' },
      'This is for owners (STAFF_EMAILS) only: ask an owner to do it.',
    );
    expect(await rows(ids)).toEqual(before);

    // A writer's bulk change to drafts, which their editor lets them make, goes ahead.
    const draft = await buildPost(t, { by: writer, status: 'draft' });
    const members = await call(writer, 'POST', BULK, {
      ids: [draft.id, ...ids],
      action: 'visibility',
      visibility: 'members',
    });
    expect(members.json().done).toBe(1);
    expect((await rows([draft.id]))[0]?.visibility).toBe('members');
  });

  it('refuses a wrong body with a 400 that names what is wrong, and changes nothing', async () => {
    const post = await buildPost(t, { by: owner });
    const id = post.id;
    const before = await rows([id]);
    const wrong: [object | string, RegExp][] = [
      [{}, /action: is required/],
      [{ ids: [id], action: 'explode' }, /action: must be one of unpublish, delete/],
      [{ ids: [], action: 'delete' }, /ids: must name at least one post/],
      [{ ids: ['1'], action: 'delete' }, /ids\.0: must be a post’s id/],
      [{ ids: [id], filter: {}, action: 'delete' }, /ids: name the posts by their ids, or/],
      [{ action: 'delete' }, /ids: name the posts by their ids, or give a filter/],
      [{ ids: [id], action: 'move' }, /section: is required to move/],
      [{ ids: [id], action: 'move', section: 'nowhere' }, /section: there is no section \/nowhere/],
      [{ ids: [id], action: 'delete', topic: 'Rent' }, /topic: is not taken by delete/],
      [{ ids: [id], action: 'addTopic', topic: '!!!' }, /topic: must have a letter or a digit/],
      [{ ids: [id], action: 'visibility', visibility: 'friends' }, /visibility: must be one of/],
      [{ filter: { status: 'gone' }, action: 'delete' }, /filter\.status: must be one of/],
      [{ filter: { colour: 'red' }, action: 'delete' }, /filter/],
      [{ ids: [id], action: 'delete', extra: true }, /extra/],
      ['{"ids": [', /./],
    ];
    for (const [body, message] of wrong) {
      const answer = await call(owner, 'POST', BULK, body);
      expect(answer.statusCode, `${JSON.stringify(body)}: ${answer.body}`).toBe(400);
      expect(answer.json().error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await rows([id])).toEqual(before);
  });

  it('acts on every post a filter finds, topics by name or by slug', async () => {
    const named = await buildPost(t, { by: owner, tags: ['Rent & housing'] });
    const found = [
      await buildPost(t, { by: owner, title: 'Zebracorn budgets' }),
      await buildPost(t, { by: owner, title: 'Zebracorn savings' }),
      await buildPost(t, { by: owner, status: 'draft', title: 'A zebracorn draft' }),
    ];
    const other = await buildPost(t, { by: owner });
    const added = await call(owner, 'POST', BULK, {
      filter: { q: 'zebracorn' },
      action: 'addTopic',
      topic: 'rent-housing',
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toEqual({ done: 3, skipped: [] });
    // The topic by the name it is known by, not by its slug.
    for (const row of await rows(idsOf(found))) expect(row.tags).toEqual(['Rent & housing']);
    expect((await rows([other.id, named.id])).map((row) => row.tags)).toEqual([
      ['Rent & housing'],
      [],
    ]);

    const removed = await call(owner, 'POST', BULK, {
      filter: { q: 'ZEBRACORN', status: 'published', kind: 'article' },
      action: 'removeTopic',
      topic: 'Rent & Housing',
    });
    expect(removed.json()).toEqual({ done: 2, skipped: [] });
    expect((await rows(idsOf(found))).map((row) => row.tags)).toEqual([[], [], ['Rent & housing']]);

    // The Trash is a filter too: everything found there comes back.
    await call(owner, 'POST', BULK, { filter: { q: 'zebracorn' }, action: 'delete' });
    expect((await rows(idsOf(found))).every((row) => row.deletedAt !== null)).toBe(true);
    const back = await call(owner, 'POST', BULK, {
      filter: { q: 'zebracorn', status: 'deleted' },
      action: 'restore',
    });
    expect(back.json()).toEqual({ done: 3, skipped: [] });
  });

  it('purges a post in the Trash for 30 days by the queue’s job, and then its address is unknown (404)', async () => {
    const post = await buildPost(t, { by: owner });
    await call(owner, 'POST', BULK, { ids: [post.id], action: 'delete' });
    const { rows: deleted } = await t.database.pool.query<{ deletedAt: Date }>(
      `SELECT "deletedAt" FROM "posts" WHERE "id" = $1`,
      [post.id],
    );
    const deletedAt = deleted[0]?.deletedAt.getTime() ?? 0;
    const due = deletedAt + TRASH_DAYS * DAY_MS;
    // Its job is on the queue, for the hour its time is up.
    const { rows: jobs } = await t.database.pool.query<{ start: Date }>(
      `SELECT start_after AS start FROM pgboss.job
        WHERE name = 'purge-trashed-posts' AND state = 'created' AND start_after >= $1
          AND start_after < $2`,
      [new Date(due), new Date(due + 3_600_000)],
    );
    expect(jobs).toHaveLength(1);

    const early = await t.app.postTrash.purge(new Date(due - DAY_MS));
    expect(early.purged).toBe(0);
    expect((await rows([post.id]))[0]?.deletedAt).not.toBeNull();
    expect((await page(post.path)).statusCode).toBe(410);

    const purge = await t.app.postTrash.purge(new Date(due + 60_000));
    expect(purge.purged).toBeGreaterThanOrEqual(1);
    expect(await rows([post.id])).toEqual([]);
    const { rows: revisions } = await t.database.pool.query(
      `SELECT 1 FROM "post_revisions" WHERE "postId" = $1`,
      [post.id],
    );
    expect(revisions).toEqual([]);
    await t.app.siteContent.refresh();
    expect((await page(post.path)).statusCode).toBe(404);
    const restore = await call(owner, 'POST', BULK, { ids: [post.id], action: 'restore' });
    expect(restore.json().skipped).toEqual([
      { id: post.id, reason: `There is no post ${post.id}.` },
    ]);
  });
});
