import { useCallback, useEffect, useReducer, useRef, useState, type ReactNode } from 'react';
import {
  COMMENT_SORTS,
  DEFAULT_COMMENT_SORT,
  type CommentSort,
  type CommentViewer,
} from '../../../../contract/comments';
import type { PostComments } from '../../../../contract/site-data';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/session/session-context';
import { CommentForm, describeCommentFailure } from './comment-form';
import { CommentGate } from './comment-composer';
import { CommentThread, type CommentActions } from './comment-item';
import { changeCommentList, type CommentListState } from './comment-list-state';
import { fetchComments, postComment } from './comments-api';
import '../../components/form-field.css';
import './comments.css';
import { LabelledOptions } from '../../components/labelled-options';

const SORT_LABELS: Record<CommentSort, string> = {
  best: 'Best',
  newest: 'Newest',
  oldest: 'Oldest',
};

/** "12 comments", "1 comment", "No comments yet". */
export function countText(count: number): string {
  if (count === 0) return 'No comments yet';
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'comment' : 'comments'}`;
}

const EMPTY: CommentListState = { count: 0, comments: [], nextCursor: null };

/**
 * The comments under a post (docs/comments.md). The server draws the count and the newest page
 * into the page (`initial`), so they read without scripts; in the browser the rest load as the
 * reader scrolls, the sort can change, and a reader who may comment writes, replies, edits,
 * deletes, likes and reports here. A members-only post's comments come from the server only for
 * those who may read its body. `folded`: under a campaign or a boycott, in a disclosure that
 * opens on demand.
 */
export function CommentsSection({
  postId,
  initial,
  folded = false,
}: {
  postId: number;
  initial: PostComments;
  folded?: boolean;
}) {
  const membersOnly = 'membersOnly' in initial;
  const [list, change] = useReducer(changeCommentList, membersOnly ? EMPTY : initial);
  const [sort, setSort] = useState<CommentSort>(DEFAULT_COMMENT_SORT);
  const [viewer, setViewer] = useState<CommentViewer | null>(null);
  // Members-only: whether the server gave this reader the comments (null: not asked yet).
  const [readable, setReadable] = useState<boolean | null>(membersOnly ? null : true);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState(!folded);
  const { user, status } = useSession();
  const signedIn = status === 'ready' && Boolean(user?.email);
  const anchor = `comments-${postId}`;
  const request = useRef<AbortController | null>(null);
  const foldedBox = useRef<HTMLDetailsElement>(null);
  // A reader may open the folded comments before their code has loaded (it loads after the page
  // hydrates): the box the server drew opened then, with no toggle for React to hear.
  useEffect(() => {
    if (foldedBox.current?.open) setOpen(true);
  }, []);

  /**
   * The first page in `order`, with what the reader may do (replacing what was shown). The caller
   * says it is loading (`setLoading(true)`) when the reader asked for it.
   */
  const loadFirst = useCallback(
    (order: CommentSort) => {
      request.current?.abort();
      const controller = new AbortController();
      request.current = controller;
      return fetchComments(postId, order, null, controller.signal)
        .then(
          (answer) => {
            change({ type: 'replace', list: answer });
            setViewer(answer.viewer);
            setReadable(true);
            setProblem(null);
          },
          (error: unknown) => {
            if (controller.signal.aborted) return;
            if (error instanceof ApiError && error.status === 404 && membersOnly)
              setReadable(false);
            else setProblem(describeCommentFailure(error));
          },
        )
        .finally(() => {
          if (request.current === controller) setLoading(false);
        });
    },
    [postId, membersOnly],
  );

  // A signed-in reader's own view (their likes, their comments, whether they may write), once
  // the section is open; a restricted post's comments for whoever may read the post, signed up or
  // of a tier (the server answers others 404, as if there were none).
  const asks = signedIn;
  useEffect(() => {
    if (!open || !asks) return;
    void loadFirst(sort);
    // Sorting asks again by itself (`choose`): this is for who reads, not for the order.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, asks, loadFirst]);
  useEffect(() => () => request.current?.abort(), []);

  function choose(order: CommentSort) {
    setSort(order);
    setLoading(true);
    setProblem(null);
    void loadFirst(order);
  }

  const loadMore = useCallback(async () => {
    const cursor = list.nextCursor;
    if (!cursor || loading) return;
    const controller = new AbortController();
    request.current = controller;
    setLoading(true);
    setProblem(null);
    try {
      const answer = await fetchComments(postId, sort, cursor, controller.signal);
      change({ type: 'append', list: answer });
    } catch (error) {
      if (!controller.signal.aborted) setProblem(describeCommentFailure(error));
    } finally {
      if (request.current === controller) setLoading(false);
    }
  }, [list.nextCursor, loading, postId, sort]);

  const actions: CommentActions = {
    canInteract: Boolean(signedIn && viewer?.canComment && viewer.name),
    change,
    async reply(topId, text) {
      const { comment } = await postComment(postId, text, topId);
      change({ type: 'added', comment });
    },
  };

  const shown = readable === true;
  const body = (
    <>
      {membersOnly && !shown && (
        <p className="comments__gate" role={readable === false ? 'status' : undefined}>
          {readable === false
            ? 'The comments on this post are for those who may read all of it.'
            : 'Those who may read all of this post read and write its comments.'}
        </p>
      )}
      {shown && list.count > 1 && (
        <label className="comments__sort">
          <span>Sort by</span>
          <select
            className="control"
            value={sort}
            disabled={loading}
            onChange={(event) => choose(event.target.value as CommentSort)}
          >
            <LabelledOptions values={COMMENT_SORTS} labels={SORT_LABELS} />
          </select>
        </label>
      )}
      {(shown || !membersOnly || signedIn) && (
        <CommentGate
          viewer={viewer}
          anchor={anchor}
          onNamed={(name) => setViewer(named(viewer, name))}
        >
          <CommentForm
            label="Comment"
            submitLabel="Post comment"
            onSubmit={async (text) => {
              const { comment } = await postComment(postId, text, null);
              change({ type: 'added', comment });
            }}
          />
        </CommentGate>
      )}
      {shown && list.comments.length > 0 && (
        <ol className="comments__list" aria-label="Comments">
          {list.comments.map((comment) => (
            <CommentThread key={comment.id} comment={comment} actions={actions} />
          ))}
        </ol>
      )}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {shown && list.nextCursor && (
        <MoreComments loading={loading} onMore={() => void loadMore()} />
      )}
    </>
  );

  const heading = shown ? countText(list.count) : 'Comments';
  if (folded) {
    return (
      <details
        className="comments comments--folded"
        id={anchor}
        ref={foldedBox}
        onToggle={(event) => setOpen(event.currentTarget.open)}
      >
        <summary>{heading}</summary>
        <div className="comments__body">{body}</div>
      </details>
    );
  }
  return (
    <section className="comments" id={anchor} aria-labelledby={`${anchor}-title`}>
      <h2 id={`${anchor}-title`}>{heading}</h2>
      {body}
    </section>
  );
}

const named = (viewer: CommentViewer | null, name: string): CommentViewer | null =>
  viewer && { ...viewer, name };

/**
 * "Show more comments": pressed, or reached by scrolling (the next page loads as it comes into
 * view, so a reader who scrolls never has to press it).
 */
function MoreComments({ loading, onMore }: { loading: boolean; onMore(): void }): ReactNode {
  const button = useRef<HTMLButtonElement>(null);
  const latest = useRef(onMore);
  useEffect(() => {
    latest.current = onMore;
  });
  // Observed anew after each load: a button still in view once a page came asks for the next.
  useEffect(() => {
    const element = button.current;
    if (loading || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [loading]);
  return (
    <p className="comments__more">
      <button
        ref={button}
        type="button"
        className="button button--outline"
        disabled={loading}
        onClick={onMore}
      >
        {loading ? 'Loading comments…' : 'Show more comments'}
      </button>
    </p>
  );
}
