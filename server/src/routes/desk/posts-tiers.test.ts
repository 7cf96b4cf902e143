import { beforeAll, describe, expect, it } from 'vitest';
import { buildPost, buildTier, type BuiltTier } from '#test/factories';
import { madeLater } from '#test/made-later';
import { ARTICLE, useDeskPostsSite } from '#test/desk-posts-site';
import type { PostJson } from '../../../../contract/posts.js';

// Who may read a post, as the desk writes it: everyone, signed-in readers, any paying member, or
// the members of chosen tiers (contract/reading.ts). The desk names tiers by slug; the post keeps
// their ids (`posts."tierIds"`), so a tier's slug may change under it.

const BULK = '/api/desk/posts/bulk';

describe('the desk’s posts: who may read them', () => {
  const { t, call, owner, writer } = useDeskPostsSite();
  const [founder, makeFounder] = madeLater<BuiltTier>('The founder tier');
  const [patron, makePatron] = madeLater<BuiltTier>('The hidden patron tier');

  beforeAll(async () => {
    makeFounder(await buildTier(t, { slug: 'founder', name: 'Founder' }));
    makePatron(await buildTier(t, { slug: 'patron', name: 'Patron', visible: false }));
  });

  /** The post's row as the database keeps it. */
  async function stored(id: number) {
    const { rows } = await t.database.pool.query<{
      visibility: string;
      tierIds: number[];
      version: number;
      title: string;
    }>(`SELECT "visibility", "tierIds", "version", "title" FROM "posts" WHERE "id" = $1`, [id]);
    return rows[0];
  }

  const save = (id: number, changes: object) =>
    call(owner, 'PATCH', `/api/desk/posts/${id}`, changes);

  it('saves a post for chosen tiers, answers their slugs, and keeps them through a save that leaves them out', async () => {
    const made = await call(writer, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'for-founders',
      body: 'What everyone reads.\n\n<!-- members-only -->\n\nWhat founders read.\n',
      visibility: 'tiers',
      tiers: ['patron', 'founder', 'founder'],
    });
    expect(made.statusCode, made.body).toBe(201);
    const post: PostJson = made.json().post;
    // In the tiers' order, each once.
    expect(post).toMatchObject({ visibility: 'tiers', tiers: ['founder', 'patron'] });
    expect((await stored(post.id))?.tierIds.sort()).toEqual([founder.id, patron.id].sort());

    const read = await call(writer, 'GET', `/api/desk/posts/${post.id}`);
    expect(read.json().post).toMatchObject({ visibility: 'tiers', tiers: ['founder', 'patron'] });

    const renamed = await call(writer, 'PATCH', `/api/desk/posts/${post.id}`, {
      version: post.version,
      title: 'For founders and patrons',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().post).toMatchObject({
      visibility: 'tiers',
      tiers: ['founder', 'patron'],
    });

    const narrowed = await call(writer, 'PATCH', `/api/desk/posts/${post.id}`, {
      version: renamed.json().post.version,
      tiers: ['founder'],
    });
    expect(narrowed.json().post).toMatchObject({ visibility: 'tiers', tiers: ['founder'] });
    expect((await stored(post.id))?.tierIds).toEqual([founder.id]);

    // Another visibility leaves the tiers behind.
    const opened = await call(writer, 'PATCH', `/api/desk/posts/${post.id}`, {
      version: narrowed.json().post.version,
      visibility: 'members',
    });
    expect(opened.json().post).toMatchObject({ visibility: 'members', tiers: [] });
    expect((await stored(post.id))?.tierIds).toEqual([]);
  });

  it('refuses tiers that do not hold together with a 400 naming the field, and changes nothing', async () => {
    const post = (
      await call(owner, 'POST', '/api/desk/posts', { ...ARTICLE, slug: 'refused-tiers' })
    ).json().post as PostJson;
    const before = await stored(post.id);
    const refusals: [object, RegExp][] = [
      [
        { visibility: 'tiers', tiers: ['gold'] },
        /^tiers: names no tier of this site: "gold" \(its tiers are "supporter", "founder", "patron"\)$/,
      ],
      [
        { visibility: 'members', tiers: ['founder'] },
        /^tiers: are named only when visibility is tiers \(this post's is members\)$/,
      ],
      [{ visibility: 'tiers' }, /^tiers: must name at least one tier when visibility is tiers$/],
      [{ visibility: 'tiers', tiers: [] }, /^tiers: must name at least one tier/],
      [
        { tiers: ['founder'] },
        /^tiers: are named only when visibility is tiers \(this post's is public\)$/,
      ],
      [
        { visibility: 'friends' },
        /^visibility: must be one of public, registered, members, tiers$/,
      ],
      [{ tiers: 'founder' }, /^tiers: must be a list of tiers' slugs$/],
    ];
    for (const [changes, message] of refusals) {
      const refused = await save(post.id, { version: post.version, title: 'Changed', ...changes });
      expect(refused.statusCode, JSON.stringify(changes)).toBe(400);
      expect(refused.json().error).toEqual({
        code: 'invalid_post',
        message: expect.stringMatching(message),
      });
    }
    const made = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug: 'never-made',
      visibility: 'tiers',
      tiers: ['gold'],
    });
    expect(made.statusCode).toBe(400);
    expect(await stored(post.id)).toEqual(before);
    expect(
      (await t.database.pool.query(`SELECT 1 FROM "posts" WHERE "slug" = 'never-made'`)).rowCount,
    ).toBe(0);

    // A resource list has no body to keep from anyone.
    const list = await call(owner, 'POST', '/api/desk/posts', {
      kind: 'resources',
      title: 'Tenants’ unions',
      visibility: 'registered',
    });
    expect(list.statusCode).toBe(400);
    expect(list.json().error.message).toMatch(/^visibility: must be public: a resource list/);
  });

  it('sets who may read many posts at once: signed-in readers, then one tier’s members', async () => {
    const posts = await Promise.all([
      buildPost(t, { by: owner }),
      buildPost(t, { by: owner, status: 'draft' }),
      buildPost(t, { by: owner, visibility: 'registered' }),
    ]);
    const ids = posts.map((post) => post.id);
    const registered = await call(owner, 'POST', BULK, {
      ids,
      action: 'visibility',
      visibility: 'registered',
    });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json()).toEqual({
      done: 2,
      skipped: [{ id: ids[2], reason: 'Already for signed-in readers.' }],
    });
    for (const id of ids) expect((await stored(id))?.visibility).toBe('registered');

    const before = await Promise.all(ids.map(stored));
    const wrong: [object, RegExp][] = [
      [{ visibility: 'tiers' }, /^tiers: must name at least one tier when visibility is tiers$/],
      [{ visibility: 'members', tiers: ['founder'] }, /^tiers: are named only when visibility/],
      [
        { visibility: 'tiers', tiers: ['founder', 'gold'] },
        /^tiers: names no tier of this site: "gold" \(its tiers are "supporter", "founder", "patron"\)\.$/,
      ],
      [{ visibility: 'friends' }, /^visibility: must be one of public, registered, members, tiers/],
    ];
    for (const [body, message] of wrong) {
      const refused = await call(owner, 'POST', BULK, { ids, action: 'visibility', ...body });
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().error).toEqual({
        code: 'invalid_bulk_action',
        message: expect.stringMatching(message),
      });
    }
    expect(await Promise.all(ids.map(stored))).toEqual(before);

    const forFounders = await call(owner, 'POST', BULK, {
      ids,
      action: 'visibility',
      visibility: 'tiers',
      tiers: ['founder'],
    });
    expect(forFounders.json()).toEqual({ done: 3, skipped: [] });
    for (const id of ids) {
      expect(await stored(id)).toMatchObject({ visibility: 'tiers', tierIds: [founder.id] });
    }
    const again = await call(owner, 'POST', BULK, {
      ids: [ids[0]],
      action: 'visibility',
      visibility: 'tiers',
      tiers: ['founder'],
    });
    expect(again.json().skipped).toEqual([{ id: ids[0], reason: 'Already for those tiers.' }]);
  });

  /** A post made for `tier`'s members, then opened to everyone: its first revision is for the tier. */
  async function tierPostOpenedToAll(slug: string, tier: string) {
    const made = await call(owner, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      slug,
      visibility: 'tiers',
      tiers: [tier],
    });
    const post = made.json().post as PostJson;
    const opened = await save(post.id, { version: post.version, visibility: 'public' });
    return { post, opened: opened.json().post as PostJson };
  }

  /** Restores the post's first revision, the one for the tier, over its opened version. */
  const restoreFirst = ({ post, opened }: { post: PostJson; opened: PostJson }) =>
    call(owner, 'POST', `/api/desk/posts/${post.id}/revisions/${post.version}/restore`, {
      version: opened.version,
    });

  it('restores a revision with the tiers it was for', async () => {
    const made = await tierPostOpenedToAll('restored-tiers', 'founder');
    expect(made.opened).toMatchObject({ visibility: 'public', tiers: [] });

    const revision = await call(
      owner,
      'GET',
      `/api/desk/posts/${made.post.id}/revisions/${made.post.version}`,
    );
    expect(revision.json().revision.post).toMatchObject({
      visibility: 'tiers',
      tiers: ['founder'],
    });

    const restored = await restoreFirst(made);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().post).toMatchObject({ visibility: 'tiers', tiers: ['founder'] });
    expect((await stored(made.post.id))?.tierIds).toEqual([founder.id]);
  });

  it('restores a revision for tiers since deleted as for every paying member', async () => {
    const gone = await buildTier(t, { slug: 'short-lived' });
    const made = await tierPostOpenedToAll('for-a-tier-gone', 'short-lived');
    await t.database.pool.query(`DELETE FROM "plans" WHERE "tierId" = $1`, [gone.id]);
    await t.database.pool.query(`DELETE FROM "tiers" WHERE "id" = $1`, [gone.id]);
    const restored = await restoreFirst(made);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().post).toMatchObject({ visibility: 'members', tiers: [] });
  });

  it('lists every tier, hidden ones too, to a writer choosing who reads a post', async () => {
    const listed = await call(writer, 'GET', '/api/desk/posts/tiers');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().tiers).toEqual([
      { slug: 'supporter', name: 'Supporter', visible: true },
      { slug: 'founder', name: 'Founder', visible: true },
      { slug: 'patron', name: 'Patron', visible: false },
    ]);
  });
});
