import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../../contract/comments';
import { changeCommentList, type CommentListState } from './comment-list-state';

const comment = (id: string, parentId: string | null = null, replies: Comment[] = []): Comment => ({
  id,
  parentId,
  author: { name: `Author ${id}` },
  html: `<p>Comment ${id}</p>`,
  createdAt: '2026-11-28T04:00:00.000Z',
  editedAt: null,
  deleted: false,
  likes: 0,
  likedByMe: false,
  mine: true,
  pinned: false,
  pending: false,
  replies: replies.map((reply) => ({ ...reply, replies: [] })),
});

const list = (...comments: Comment[]): CommentListState => ({
  count: comments.reduce((sum, top) => sum + 1 + top.replies.length, 0),
  comments,
  nextCursor: 'next',
});

describe('the comments a section shows, as they change', () => {
  it('puts a new comment at the top and a reply at the end of its thread, counting each once', () => {
    let state = list(comment('a', null, [comment('r1', 'a')]), comment('b'));
    state = changeCommentList(state, { type: 'added', comment: comment('c') });
    state = changeCommentList(state, { type: 'added', comment: comment('r2', 'a') });
    // The same answer twice (a page loaded meanwhile) changes nothing.
    state = changeCommentList(state, { type: 'added', comment: comment('c') });
    expect(state.comments.map((top) => top.id)).toEqual(['c', 'a', 'b']);
    expect(state.comments[1]?.replies.map((reply) => reply.id)).toEqual(['r1', 'r2']);
    expect(state.count).toBe(5);
  });

  it('appends the next page without the threads already shown', () => {
    const state = changeCommentList(list(comment('c'), comment('a')), {
      type: 'append',
      list: { count: 4, comments: [comment('a'), comment('b')], nextCursor: null },
    });
    expect(state.comments.map((top) => top.id)).toEqual(['c', 'a', 'b']);
    expect(state).toMatchObject({ count: 4, nextCursor: null });
  });

  it('changes a reply in place: its likes, its text', () => {
    const state = changeCommentList(list(comment('a', null, [comment('r1', 'a')])), {
      type: 'changed',
      id: 'r1',
      change: { likes: 3, likedByMe: true },
    });
    expect(state.comments[0]?.replies[0]).toMatchObject({ id: 'r1', likes: 3, likedByMe: true });
    expect(state.comments[0]?.likes).toBe(0);
  });

  it('keeps a deleted comment with replies as a placeholder, drops one without, and the placeholder with its last reply', () => {
    let state = list(comment('a', null, [comment('r1', 'a')]), comment('b'));
    state = changeCommentList(state, { type: 'deleted', id: 'b' });
    state = changeCommentList(state, { type: 'deleted', id: 'a' });
    expect(state.comments).toHaveLength(1);
    expect(state.comments[0]).toMatchObject({ id: 'a', deleted: true, html: '' });
    expect(state.count).toBe(1);
    state = changeCommentList(state, { type: 'deleted', id: 'r1' });
    expect(state.comments).toEqual([]);
    expect(state.count).toBe(0);
  });
});
