import { beforeAll, describe, expect, it } from 'vitest';
import { buildComment, buildMember, buildPost, buildTier } from '#test/factories';
import { useSite } from '#test/with-site';
import { comment, list, posted } from '#test/comment-fixtures';

// The comments under a post are for those who may read the post (contract/reading.ts): under a
// founders' post, a supporter neither reads nor writes them (the same 404 as a post they cannot
// see) and a founder does; under a post for anyone signed up, a free member does, where the site
// lets everyone comment. A restricted post's comments are never drawn into its page.

describe('comments under a post for some readers', () => {
  const site = useSite({
    env: {
      SITE_URL: 'https://members.example.org',
      STAFF_EMAILS: 'tier-comments-owner@example.com',
      COMMENTS: 'everyone',
    },
  });
  beforeAll(async () => {
    await buildTier(site, { slug: 'founder', name: 'Founder' });
  });

  const founders = () =>
    buildPost(site, {
      visibility: 'tiers',
      tiers: ['founder'],
      body: 'Everyone reads this.\n\n<!-- members-only -->\n\nFounders read this.\n',
    });

  it('keeps a founders’ post’s comments from a supporter, reading and writing, and gives them to a founder', async () => {
    const post = await founders();
    const founder = await buildMember(site, { tier: 'founder', name: 'Fran Founder' });
    const supporter = await buildMember(site, { tier: 'supporter', name: 'Sam Supporter' });
    await posted(site, founder, post.id, 'Founders only, this thread.');

    const read = await site.call(supporter, 'GET', `/api/posts/${post.id}/comments`);
    expect(read.statusCode).toBe(404);
    expect(read.body).not.toContain('Founders only');
    const written = await comment(site, supporter, post.id, 'Let me in.');
    expect(written.statusCode).toBe(404);
    expect(written.json().error.code).toBe('not_found');

    const seen = await list(site, founder, post.id);
    expect(seen.comments.map((each) => each.author.name)).toEqual(['Fran Founder']);
    expect(seen.viewer.canComment).toBe(true);
    const { rows } = await site.database.pool.query<{ body: string }>(
      `SELECT body FROM comments WHERE "postId" = $1`,
      [post.id],
    );
    expect(rows.map((row) => row.body)).toEqual(['Founders only, this thread.']);
  });

  it('keeps a supporter from liking a founders’ comment they cannot see', async () => {
    const post = await founders();
    const founder = await buildMember(site, { tier: 'founder' });
    const built = await buildComment(site, { post, by: founder });
    const supporter = await buildMember(site, { tier: 'supporter', name: 'Sam Too' });
    const liked = await site.call(supporter, 'POST', `/api/comments/${built.id}/likes`);
    expect(liked.statusCode).toBe(404);
  });

  it('gives a free member the comments of a post for anyone signed up, and keeps them from visitors', async () => {
    const post = await buildPost(site, {
      visibility: 'registered',
      body: 'Everyone reads this.\n\n<!-- members-only -->\n\nSigned-in readers read this.\n',
    });
    const free = await buildMember(site, { name: 'Free Reader' });
    await posted(site, free, post.id, 'Glad to be signed in.');
    const visitor = await site.call(null, 'GET', `/api/posts/${post.id}/comments`);
    expect(visitor.statusCode).toBe(404);
    expect((await list(site, free, post.id)).count).toBe(1);
  });

  it('draws no restricted post’s comments into its page: the browser asks for them', async () => {
    const post = await founders();
    const open = await buildPost(site);
    const drawn = await site.app.pageComments.forPage(site.app.siteContent.current(), post.path);
    expect(drawn?.comments[post.id]).toEqual({ membersOnly: true });
    const shown = await site.app.pageComments.forPage(site.app.siteContent.current(), open.path);
    expect(shown?.comments[open.id]).toMatchObject({ count: 0 });
  });
});
