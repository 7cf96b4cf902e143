import type { Comment } from '../../../../contract/comments';

/** What a change of one comment may set (its thread stays as it is). */
export type CommentFields = Partial<Omit<Comment, 'replies'>>;

/** The comments a post's section shows: the count, the threads loaded so far, the next page. */
export interface CommentListState {
  count: number;
  comments: Comment[];
  nextCursor: string | null;
}

export type CommentListChange =
  | { type: 'replace'; list: CommentListState }
  | { type: 'append'; list: CommentListState }
  | { type: 'added'; comment: Comment }
  | { type: 'changed'; id: string; change: CommentFields }
  | { type: 'deleted'; id: string };

/** A top comment and its replies with `change` made to the one whose id is `id`. */
function changeIn(comment: Comment, id: string, change: CommentFields): Comment {
  if (comment.id === id) return { ...comment, ...change };
  if (!comment.replies.some((reply) => reply.id === id)) return comment;
  return {
    ...comment,
    replies: comment.replies.map((reply) => (reply.id === id ? { ...reply, ...change } : reply)),
  };
}

/** Whether `id` is a comment already shown (a top comment or a reply). */
const shows = (comments: readonly Comment[], id: string) =>
  comments.some((top) => top.id === id || top.replies.some((reply) => reply.id === id));

/**
 * The next list after a change: a page loaded (the first, or the next one appended without the
 * threads already shown), a comment written (a reply at the end of its thread, a new thread at
 * the top, where the writer looks), edited or liked, or deleted (a top comment with replies stays
 * as a placeholder, as the server keeps it).
 */
export function changeCommentList(
  state: CommentListState,
  action: CommentListChange,
): CommentListState {
  switch (action.type) {
    case 'replace':
      return action.list;
    case 'append':
      return {
        count: action.list.count,
        comments: [
          ...state.comments,
          ...action.list.comments.filter((comment) => !shows(state.comments, comment.id)),
        ],
        nextCursor: action.list.nextCursor,
      };
    case 'added': {
      const { comment } = action;
      if (shows(state.comments, comment.id)) return state;
      const parent = comment.parentId;
      const comments = parent
        ? state.comments.map((top) =>
            top.id === parent
              ? { ...top, replies: [...top.replies, { ...comment, replies: [] }] }
              : top,
          )
        : [comment, ...state.comments];
      return { ...state, count: state.count + 1, comments };
    }
    case 'changed':
      return {
        ...state,
        comments: state.comments.map((top) => changeIn(top, action.id, action.change)),
      };
    case 'deleted': {
      if (!shows(state.comments, action.id)) return state;
      const comments = state.comments.flatMap((top): Comment[] => {
        if (top.id === action.id) {
          return top.replies.length > 0
            ? [{ ...top, deleted: true, html: '', likes: 0, likedByMe: false }]
            : [];
        }
        const replies = top.replies.filter((reply) => reply.id !== action.id);
        if (replies.length === top.replies.length) return [top];
        // A placeholder whose last reply goes has nothing left to hold.
        return top.deleted && replies.length === 0 ? [] : [{ ...top, replies }];
      });
      return { ...state, count: Math.max(0, state.count - 1), comments };
    }
  }
}
