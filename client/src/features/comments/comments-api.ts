import type {
  CommentAnswer,
  CommentLikes,
  CommentList,
  CommentSort,
  Profile,
} from '../../../../contract/comments';
import { apiRequest } from '../../lib/api-client';

/** The public comments API (contract/comments.ts), as the comments under a post call it. */

const commentPath = (id: string) => `/api/comments/${encodeURIComponent(id)}`;

export function fetchComments(
  postId: number,
  sort: CommentSort,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<CommentList> {
  const query = new URLSearchParams({ sort });
  if (cursor) query.set('cursor', cursor);
  return apiRequest(`/api/posts/${postId}/comments?${query.toString()}`, { signal });
}

export const postComment = (
  postId: number,
  body: string,
  parentId: string | null,
): Promise<CommentAnswer> =>
  apiRequest(`/api/posts/${postId}/comments`, {
    method: 'POST',
    body: parentId ? { body, parentId } : { body },
  });

export const editComment = (id: string, body: string): Promise<CommentAnswer> =>
  apiRequest(commentPath(id), { method: 'PATCH', body: { body } });

/** Answers 204, with nothing to read. */
export const deleteComment = (id: string): Promise<void> =>
  apiRequest(commentPath(id), { method: 'DELETE' });

export const likeComment = (id: string, like: boolean): Promise<CommentLikes> =>
  apiRequest(`${commentPath(id)}/likes`, { method: like ? 'POST' : 'DELETE' });

export const reportComment = (id: string, reason: string): Promise<unknown> =>
  apiRequest(`${commentPath(id)}/reports`, { method: 'POST', body: { reason } });

export const saveCommenterName = (name: string): Promise<Profile> =>
  apiRequest('/api/account/profile', { method: 'PATCH', body: { name } });
