import { useEffect, useRef, useState } from 'react';
import { commentAnchor, type Comment } from '../../../../contract/comments';
import { formatDate } from '../../lib/format-date';
import { CommentForm, describeCommentFailure } from './comment-form';
import { deleteComment, editComment, likeComment } from './comments-api';
import type { CommentListChange } from './comment-list-state';
import { ReportDialog } from './report-dialog';

/** What the reader may do to the comments of this post, and how a change reaches the list. */
export interface CommentActions {
  /** The reader may like, reply and report (signed in, allowed to comment, named). */
  canInteract: boolean;
  change(action: CommentListChange): void;
  /** Writes a reply into the thread of `topId`; throws the server's refusal. */
  reply(topId: string, text: string): Promise<void>;
}

/** A top comment and its replies (one level: a reply to a reply joins the same thread). */
export function CommentThread({ comment, actions }: { comment: Comment; actions: CommentActions }) {
  const [replying, setReplying] = useState(false);
  return (
    <li className="comments__thread">
      <CommentItem comment={comment} actions={actions} onReply={() => setReplying(true)} />
      {(comment.replies.length > 0 || replying) && (
        <ol className="comments__replies" aria-label={`Replies to ${comment.author.name}`}>
          {comment.replies.map((reply) => (
            <li key={reply.id}>
              <CommentItem comment={reply} actions={actions} onReply={() => setReplying(true)} />
            </li>
          ))}
          {replying && (
            <li>
              <CommentForm
                label={`Reply to ${comment.author.name}`}
                submitLabel="Post reply"
                autoFocus
                onSubmit={async (text) => {
                  await actions.reply(comment.id, text);
                  setReplying(false);
                }}
                onCancel={() => setReplying(false)}
              />
            </li>
          )}
        </ol>
      )}
    </li>
  );
}

type Mode = 'read' | 'edit' | 'delete';

function CommentItem({
  comment,
  actions,
  onReply,
}: {
  comment: Comment;
  actions: CommentActions;
  onReply(): void;
}) {
  const [mode, setMode] = useState<Mode>('read');
  const [reporting, setReporting] = useState(false);
  const [reported, setReported] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { id, author, deleted } = comment;
  const labelId = `${commentAnchor(id)}-by`;

  async function toggleLike() {
    setBusy(true);
    setProblem(null);
    try {
      const likes = await likeComment(id, !comment.likedByMe);
      actions.change({ type: 'changed', id, change: likes });
    } catch (error) {
      setProblem(describeCommentFailure(error));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    setProblem(null);
    try {
      await deleteComment(id);
      actions.change({ type: 'deleted', id });
    } catch (error) {
      setProblem(describeCommentFailure(error));
      setMode('read');
    } finally {
      setBusy(false);
    }
  }

  return (
    <article
      className={comment.pinned ? 'comment comment--pinned' : 'comment'}
      id={commentAnchor(id)}
      aria-labelledby={labelId}
    >
      <header className="comment__head">
        <strong id={labelId} className="comment__author">
          {deleted ? 'Deleted comment' : author.name}
        </strong>
        <time dateTime={comment.createdAt}>{formatDate(comment.createdAt)}</time>
        {comment.editedAt && !deleted && <span className="comment__edited">edited</span>}
        {comment.pinned && <span className="comment__mark">Pinned</span>}
        {comment.pending && <span className="comment__mark">Awaiting approval</span>}
      </header>
      {deleted ? (
        <p className="comment__deleted">This comment was deleted.</p>
      ) : mode === 'edit' ? (
        <CommentForm
          label="Edit your comment"
          submitLabel="Save"
          initialText={comment.body ?? ''}
          autoFocus
          onSubmit={async (text) => {
            const { comment: saved } = await editComment(id, text);
            actions.change({
              type: 'changed',
              id,
              change: { html: saved.html, editedAt: saved.editedAt, pending: saved.pending },
            });
            setMode('read');
          }}
          onCancel={() => setMode('read')}
        />
      ) : (
        // Sanitised by the server (server/src/comments/): no script, handler or image survives.
        <div className="comment__body" dangerouslySetInnerHTML={{ __html: comment.html }} />
      )}
      {!deleted && mode !== 'edit' && (
        <div className="comment__actions">
          {actions.canInteract ? (
            <button
              type="button"
              className="comment__action comment__like"
              aria-pressed={comment.likedByMe}
              disabled={busy}
              onClick={() => void toggleLike()}
            >
              Like <span className="comment__count">{comment.likes}</span>
            </button>
          ) : (
            comment.likes > 0 && (
              <span className="comment__likes">
                {comment.likes} {comment.likes === 1 ? 'like' : 'likes'}
              </span>
            )
          )}
          {actions.canInteract && !comment.pending && (
            <button type="button" className="comment__action" onClick={onReply}>
              Reply
            </button>
          )}
          {comment.mine && (
            <>
              <button type="button" className="comment__action" onClick={() => setMode('edit')}>
                Edit
              </button>
              <button type="button" className="comment__action" onClick={() => setMode('delete')}>
                Delete
              </button>
            </>
          )}
          {actions.canInteract &&
            !comment.mine &&
            (reported ? (
              <span className="comment__note" role="status">
                Reported. Thank you.
              </span>
            ) : (
              <button type="button" className="comment__action" onClick={() => setReporting(true)}>
                Report
              </button>
            ))}
        </div>
      )}
      {mode === 'delete' && (
        <DeleteConfirmation
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setMode('read')}
        />
      )}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {reporting && (
        <ReportDialog
          commentId={id}
          author={author.name}
          onReported={() => setReported(true)}
          onClose={() => setReporting(false)}
        />
      )}
    </article>
  );
}

function DeleteConfirmation({
  busy,
  onConfirm,
  onCancel,
}: {
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <div className="comment__confirm" role="group" aria-label="Delete your comment?">
      <p>Delete your comment? This cannot be undone.</p>
      <p className="button-row">
        <button ref={confirm} type="button" className="button" disabled={busy} onClick={onConfirm}>
          Yes, delete
        </button>
        <button type="button" className="button button--outline" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </div>
  );
}
