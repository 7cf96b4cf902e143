import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Comment, CommentList } from '../../contract/comments.js';
import { seedMember, type SeededMember } from '#test/members';
import type { Site } from '#test/with-site';

// What the comment tests share: a live post written straight to the database (publishing is tested
// with the desk's posts), a member with a name, and the calls they make.

let posts = 0;

/** A published article, public unless `membersOnly`; answers its id and its address. */
export async function livePost(
  site: Pick<Site, 'database'>,
  options: { membersOnly?: boolean; title?: string } = {},
): Promise<{ id: number; path: string }> {
  posts += 1;
  const slug = `talking-${Date.now()}-${posts}`;
  const { rows } = await site.database.pool.query<{ id: number }>(
    `INSERT INTO posts (kind, slug, status, visibility, title, fields, body, "publishedAt", "updatedAt")
     VALUES ('article', $1, 'published', $2, $3, '{"category": "Wealth", "summary": "S"}',
             'A body.', now() - interval '1 hour', now())
     RETURNING id`,
    [slug, options.membersOnly ? 'members' : 'public', options.title ?? `Talking ${posts}`],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('no post');
  return { id, path: `/wealth/${slug}` };
}

/** A paying member (a year paid once) whose comments are shown with `name`. */
export async function namedMember(
  site: Site,
  name: string,
  options: { paid?: boolean; role?: 'owner' | 'editor' | 'writer' } = {},
): Promise<SeededMember> {
  const member = await seedMember(site, { paid: options.paid ?? true, ...options });
  const named = await site.call(member, 'PATCH', '/api/account/profile', { name });
  expect(named.statusCode, named.body).toBe(200);
  return member;
}

export async function comment(
  site: Site,
  who: SeededMember | null,
  postId: number,
  body: string,
  parentId?: string,
): Promise<LightMyRequestResponse> {
  return site.call(who, 'POST', `/api/posts/${postId}/comments`, {
    body,
    ...(parentId && { parentId }),
  });
}

/** Posts a comment that must be taken: the comment. */
export async function posted(
  site: Site,
  who: SeededMember,
  postId: number,
  body: string,
  parentId?: string,
): Promise<Comment> {
  const answer = await comment(site, who, postId, body, parentId);
  expect(answer.statusCode, answer.body).toBe(201);
  return (answer.json() as { comment: Comment }).comment;
}

export async function list(
  site: Site,
  who: SeededMember | null,
  postId: number,
  query = '',
): Promise<CommentList> {
  const answer = await site.call(who, 'GET', `/api/posts/${postId}/comments${query}`);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as CommentList;
}

/** Waits (up to `ms`) until `check` answers true; answers whether it did. */
export async function eventually(check: () => Promise<boolean> | boolean, ms = 10_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}
