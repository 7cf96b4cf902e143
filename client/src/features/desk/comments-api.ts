import type {
  CommenterBlock,
  CommentMailChoice,
  DeskComment,
  DeskCommentFilter,
  DeskCommentList,
} from '../../../../contract/comments';
import { DESK_API } from '../../../../contract/constants';
import { apiRequest } from '../../lib/api-client';

/** The desk's comments API (contract/comments.ts): owners and editors. */

export type CommentModeration = 'hide' | 'show' | 'pin' | 'unpin';

export function fetchDeskComments(
  filter: DeskCommentFilter,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<DeskCommentList> {
  const query = new URLSearchParams();
  if (filter !== 'all') query.set('status', filter);
  if (cursor) query.set('cursor', cursor);
  const search = query.toString();
  return apiRequest(`${DESK_API}/comments${search ? `?${search}` : ''}`, { signal });
}

export const moderateComment = (
  id: string,
  action: CommentModeration,
): Promise<{ comment: DeskComment }> =>
  apiRequest(`${DESK_API}/comments/${encodeURIComponent(id)}/${action}`, { method: 'POST' });

export const blockCommenter = (userId: string, hideEarlier: boolean): Promise<CommenterBlock> =>
  apiRequest(`${DESK_API}/commenters/${encodeURIComponent(userId)}/block`, {
    method: 'POST',
    body: { hideEarlier },
  });

export const unblockCommenter = (userId: string): Promise<CommenterBlock> =>
  apiRequest(`${DESK_API}/commenters/${encodeURIComponent(userId)}/unblock`, { method: 'POST' });

export const fetchCommentMail = (signal?: AbortSignal): Promise<CommentMailChoice> =>
  apiRequest(`${DESK_API}/comment-mail`, { signal });

export const saveCommentMail = (onEveryComment: boolean): Promise<CommentMailChoice> =>
  apiRequest(`${DESK_API}/comment-mail`, { method: 'PUT', body: { onEveryComment } });
