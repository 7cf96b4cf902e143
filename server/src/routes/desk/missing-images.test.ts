import { describe, expect, it } from 'vitest';
import type { DeskImageRetry, DeskMissingImages } from '../../../../contract/desk-api.js';
import { buildPost, buildStaff } from '#test/factories';
import { useSite } from '#test/with-site';

// The Import page's "Try the missing images again" and its count (missing-images.ts): for owners,
// counted from the posts, each retry in the audit log.

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
/** Nothing listens there, and the site never fetches from its own machine: it stays missing. */
const GONE = 'http://127.0.0.1:9/harbour.png';
const COVER = 'http://127.0.0.1:9/cover.png';

describe('the missing images on the desk', () => {
  const t = useSite({ env: { STAFF_EMAILS: OWNER, EDITOR_EMAILS: EDITOR } });

  it('lists the images posts still show from elsewhere, tries them again for an owner, and logs it', async () => {
    const [owner, editor] = await buildStaff(t, 'owner', 'editor');
    const none = await t.call(owner, 'GET', '/api/desk/imports/missing-images');
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toEqual({ count: 0, posts: [] });

    // A post the desk keeps as an import left it: its images at their old addresses.
    const post = await buildPost(t, {
      by: owner,
      title: 'The harbour',
      body: `At the water.\n\n![A harbour](${GONE} "The harbour at dawn")`,
      featureImage: COVER,
      featureImageAlt: 'The cover',
    });
    const listed = await t.call(owner, 'GET', '/api/desk/imports/missing-images');
    expect(listed.json<DeskMissingImages>()).toEqual({
      count: 2,
      posts: [
        {
          id: post.id,
          kind: 'article',
          slug: post.slug,
          title: 'The harbour',
          urls: [COVER, GONE],
        },
      ],
    });

    expect((await t.call(editor, 'GET', '/api/desk/imports/missing-images')).statusCode).toBe(403);
    const refused = await t.call(editor, 'POST', '/api/desk/imports/missing-images/retry');
    expect(refused.statusCode).toBe(403);

    const retried = await t.call(owner, 'POST', '/api/desk/imports/missing-images/retry');
    expect(retried.statusCode, retried.body).toBe(200);
    const retry = retried.json<DeskImageRetry>();
    expect(retry).toMatchObject({ fetched: 0, postsUpdated: 0, missing: { count: 2 } });
    expect(retry.notFetched.map(({ url }) => url).sort()).toEqual([COVER, GONE]);
    expect(retry.notFetched[0]?.reason).toMatch(/private, loopback or otherwise local address/);
    const { rows } = await t.database.pool.query<{ actorEmail: string; after: unknown }>(
      `SELECT "actorEmail", after FROM audit_log WHERE action = 'images_retry'`,
    );
    expect(rows).toEqual([
      { actorEmail: OWNER, after: { fetched: 0, postsUpdated: 0, stillMissing: 2 } },
    ]);
    // The post itself is as it was.
    const { rows: posts } = await t.database.pool.query<{ body: string; version: number }>(
      `SELECT body, version FROM posts WHERE id = $1`,
      [post.id],
    );
    expect(posts[0]).toEqual({ body: post.body, version: post.version });
  });
});
