import { useId, useState } from 'react';
import {
  commentAnchor,
  DESK_COMMENT_FILTERS,
  type DeskComment,
  type DeskCommentFilter,
} from '../../../../contract/comments';
import { Link, useLocation } from '../../lib/router';
import {
  blockCommenter,
  fetchCommentMail,
  fetchDeskComments,
  moderateComment,
  saveCommentMail,
  unblockCommenter,
  type CommentModeration,
} from './comments-api';
import { ConfirmBox } from './confirm-box';
import { formatDateTime } from './desk-format';
import { DeskPager } from './desk-pager';
import { describeError, useDeskData } from './use-desk-data';
import commentsCss from './comments-page.css?inline';

const FILTER_LABELS: Record<DeskCommentFilter, string> = {
  all: 'All',
  reported: 'Reported',
  hidden: 'Hidden',
  pending: 'Awaiting approval',
};

const DONE: Record<CommentModeration, string> = {
  hide: 'Hidden: readers no longer see it.',
  show: 'Shown: readers see it again.',
  pin: 'Pinned: it comes first under its post.',
  unpin: 'Unpinned.',
};

/** The filter as the address says it (`?status=reported`); anything else is every comment. */
function readFilter(query: string): DeskCommentFilter {
  const status = new URLSearchParams(query).get('status');
  return DESK_COMMENT_FILTERS.find((filter) => filter === status) ?? 'all';
}

/** A block waiting for the staff member to confirm it. */
interface PendingBlock {
  comment: DeskComment;
  hideEarlier: boolean;
}

/**
 * /desk/comments (owners and editors): every comment, the reported first (most reports, then
 * newest), then the newest, 50 at a time; filtered to the reported, hidden or held ones in the
 * address, so a filtered list can be bookmarked and Back returns to it. Each shows its post, its
 * author and its text with the reports' reasons, and the moderator hides or shows it (showing
 * approves a held one), pins it, or blocks its author, with their earlier comments hidden too if
 * they choose. Every action goes to the audit log (server/src/comments/moderation.ts).
 */
export function CommentsPage() {
  const { search } = useLocation();
  const filter = readFilter(search);
  return (
    <section aria-labelledby="comments-title" className="desk-comments">
      <style>{commentsCss}</style>
      <div className="desk__heading">
        <h1 id="comments-title">Comments</h1>
      </div>
      <CommentMailToggle />
      <nav className="link-list desk-comments__filters" aria-label="Which comments">
        {DESK_COMMENT_FILTERS.map((option) => (
          <Link
            key={option}
            to={option === 'all' ? '/desk/comments' : `/desk/comments?status=${option}`}
            aria-current={option === filter ? 'page' : undefined}
          >
            {FILTER_LABELS[option]}
          </Link>
        ))}
      </nav>
      {/* A new filter starts again from its first page. */}
      <CommentsList key={filter} filter={filter} />
    </section>
  );
}

function CommentsList({ filter }: { filter: DeskCommentFilter }) {
  // The cursors of the pages seen: the last is the page shown (null: the first).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors.at(-1) ?? null;
  const [list, reload] = useDeskData(`${filter}|${cursor ?? ''}`, (signal) =>
    fetchDeskComments(filter, cursor, signal),
  );
  // Comments as the last action left them, over the list as loaded.
  const [changed, setChanged] = useState<Record<string, DeskComment>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [block, setBlock] = useState<PendingBlock | null>(null);

  async function act(comment: DeskComment, action: CommentModeration) {
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await moderateComment(comment.id, action);
      setChanged((known) => ({ ...known, [comment.id]: answer.comment }));
      setOutcome({
        ok: true,
        text: `${DONE[action]} (${comment.author.name}, ${comment.post.title})`,
      });
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    } finally {
      setBusy(false);
    }
  }

  async function setBlocked(comment: DeskComment, blocked: boolean, hideEarlier = false) {
    const userId = comment.author.userId;
    if (!userId) return;
    setBusy(true);
    setOutcome(null);
    try {
      const answer = blocked
        ? await blockCommenter(userId, hideEarlier)
        : await unblockCommenter(userId);
      setOutcome({
        ok: true,
        text: blocked
          ? `Blocked ${comment.author.name}: their next comment is refused.${
              answer.hidden > 0
                ? ` ${answer.hidden} earlier comment${answer.hidden === 1 ? '' : 's'} hidden.`
                : ''
            }`
          : `Unblocked ${comment.author.name}: they may comment again.`,
      });
      setChanged({});
      reload();
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    } finally {
      setBusy(false);
      setBlock(null);
    }
  }

  return (
    <>
      <p className={outcome?.ok === false ? 'form-error' : 'desk__done'} role="status">
        {outcome?.text ?? ''}
      </p>
      {block && (
        <ConfirmBox
          confirmLabel="Yes, block"
          busy={busy}
          onConfirm={() => void setBlocked(block.comment, true, block.hideEarlier)}
          onCancel={() => setBlock(null)}
        >
          Block {block.comment.author.name} ({block.comment.author.email})? Their next comment is
          refused until you unblock them.{' '}
          <label className="desk-comments__choice">
            <input
              type="checkbox"
              checked={block.hideEarlier}
              onChange={(event) => setBlock({ ...block, hideEarlier: event.target.checked })}
            />{' '}
            Also hide their earlier comments
          </label>
        </ConfirmBox>
      )}
      {list.state === 'error' && <p role="alert">{describeError(list.error)}</p>}
      {list.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {list.state === 'ready' &&
        (list.data.comments.length === 0 ? (
          <p className="desk__empty">
            {filter === 'all'
              ? 'No comments yet.'
              : `No comment is ${FILTER_LABELS[filter].toLowerCase()}.`}
          </p>
        ) : (
          <ol className="desk-comments__list" aria-label={`Comments, page ${cursors.length}`}>
            {list.data.comments.map((loaded) => {
              const comment = changed[loaded.id] ?? loaded;
              return (
                <li key={comment.id}>
                  <CommentCard
                    comment={comment}
                    busy={busy}
                    onAct={(action) => void act(comment, action)}
                    onBlock={() => {
                      setOutcome(null);
                      setBlock({ comment, hideEarlier: false });
                    }}
                    onUnblock={() => void setBlocked(comment, false)}
                  />
                </li>
              );
            })}
          </ol>
        ))}
      {list.state === 'ready' && (cursors.length > 1 || list.data.nextCursor) && (
        <DeskPager cursors={cursors} next={list.data.nextCursor} onCursors={setCursors} />
      )}
    </>
  );
}

function CommentCard({
  comment,
  busy,
  onAct,
  onBlock,
  onUnblock,
}: {
  comment: DeskComment;
  busy: boolean;
  onAct(action: CommentModeration): void;
  onBlock(): void;
  onUnblock(): void;
}) {
  const id = useId();
  const { author, post, reports } = comment;
  const hidden = comment.status !== 'visible';
  return (
    <article className="desk-comment" aria-labelledby={id}>
      <p className="desk-comment__where">
        <a href={`${post.path}#${commentAnchor(comment.id)}`}>{post.title}</a>
        <span>{formatDateTime(comment.createdAt)}</span>
        {comment.parentId && <span className="desk-badge">Reply</span>}
        {comment.status === 'hidden' && <span className="desk-badge">Hidden</span>}
        {comment.status === 'pending' && (
          <span className="desk-badge desk-badge--wait">Awaiting approval</span>
        )}
        {comment.pinned && <span className="desk-badge desk-badge--on">Pinned</span>}
        {comment.deleted && <span className="desk-badge">Deleted by its author</span>}
        {comment.editedAt && <span className="desk-badge">Edited</span>}
      </p>
      <h2 id={id} className="desk-comment__author">
        {author.name}
        {author.email && <span className="desk__id">{author.email}</span>}
        {author.blocked && <span className="desk-badge desk-badge--off">Blocked</span>}
        {!author.userId && <span className="desk-badge">Imported guest</span>}
      </h2>
      {comment.deleted ? (
        <p className="desk__note">Its author deleted it; its replies keep their place.</p>
      ) : (
        // Sanitised by the server (server/src/comments/render-comment.ts).
        <div className="desk-comment__text" dangerouslySetInnerHTML={{ __html: comment.html }} />
      )}
      {reports.length > 0 && (
        <div className="desk-comment__reports">
          <h3>
            {reports.length} report{reports.length === 1 ? '' : 's'}
          </h3>
          <ul>
            {reports.map((report, index) => (
              <li key={`${report.createdAt}-${index}`}>
                “{report.reason}”{' '}
                <span className="desk__when">{formatDateTime(report.createdAt)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="button-row desk-comment__actions">
        <button
          type="button"
          className="button button--outline"
          disabled={busy}
          aria-label={`${hidden ? (comment.status === 'pending' ? 'Approve' : 'Show') : 'Hide'} ${author.name}’s comment`}
          onClick={() => onAct(hidden ? 'show' : 'hide')}
        >
          {hidden ? (comment.status === 'pending' ? 'Approve' : 'Show') : 'Hide'}
        </button>
        {!comment.parentId && !comment.deleted && (
          <button
            type="button"
            className="button button--outline"
            disabled={busy}
            aria-label={`${comment.pinned ? 'Unpin' : 'Pin'} ${author.name}’s comment`}
            onClick={() => onAct(comment.pinned ? 'unpin' : 'pin')}
          >
            {comment.pinned ? 'Unpin' : 'Pin'}
          </button>
        )}
        {author.userId &&
          (author.blocked ? (
            <button
              type="button"
              className="button button--outline"
              disabled={busy}
              onClick={onUnblock}
            >
              Unblock {author.name}
            </button>
          ) : (
            <button
              type="button"
              className="button button--outline"
              disabled={busy}
              onClick={onBlock}
            >
              Block {author.name}
            </button>
          ))}
      </p>
    </article>
  );
}

/** "Mail me on every new comment": the signed-in staff member's own choice. */
function CommentMailToggle() {
  const [choice] = useDeskData('comment-mail', (signal) => fetchCommentMail(signal));
  const [saved, setSaved] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const on = saved ?? (choice.state === 'ready' ? choice.data.onEveryComment : false);

  async function toggle(next: boolean) {
    setBusy(true);
    setProblem(null);
    try {
      setSaved((await saveCommentMail(next)).onEveryComment);
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="desk-comments__mail">
      <label>
        <input
          type="checkbox"
          checked={on}
          disabled={busy || choice.state !== 'ready'}
          onChange={(event) => void toggle(event.target.checked)}
        />{' '}
        Mail me on every new comment
      </label>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {choice.state === 'error' && (
        <p className="form-error" role="alert">
          {describeError(choice.error)}
        </p>
      )}
    </div>
  );
}
