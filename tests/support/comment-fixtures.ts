import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Comment, CommentList } from '../../contract/comments.js';
import type { Member } from '#test/factories';
import type { Site } from '#test/with-site';

// The calls the comment tests make (their posts, members and comments come from the factories).

export async function comment(
  site: Site,
  who: Member | null,
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
  who: Member,
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
  who: Member | null,
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
