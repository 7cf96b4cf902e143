import { Link, useLocation, useNavigate } from '../../lib/router';
import { useState, type FormEvent } from 'react';
import type { DeskStaff } from '../../../../contract/desk-api';
import {
  POST_LIST_STATUSES,
  purgedAfter,
  TRASH_DAYS,
  type BulkResult,
  type BulkSelection,
  type PostListStatus,
} from '../../../../contract/post-bulk';
import { POST_KINDS, type PostJson, type PostKind } from '../../../../contract/posts';
import { ApiError } from '../../lib/api-client';
import { changePostStatus, fetchPosts, type PostSearch } from './desk-api';
import { formatDate, formatDateTime } from './desk-format';
import { ConfirmBox } from './confirm-box';
import { DeskTable } from './desk-table';
import { KIND_LABELS } from './editor/post-form';
import { NewPostChooser } from './new-post-chooser';
import { DeskPager } from './desk-pager';
import { describeError, useDeskData } from './use-desk-data';
import { BulkOutcome, PostsBulkBar } from './posts-bulk-bar';
import { describeReaders, fetchPostTiers } from './post-tiers';
import postsBulkCss from './posts-bulk.css?inline';

const STATUS_LABELS: Record<PostListStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  published: 'Published',
  deleted: 'In the Trash',
};

/** A change the staff member asked for, waiting for them to confirm it. */
interface Pending {
  post: PostJson;
  change: 'publish' | 'unpublish';
}

/** The list's search as the address says it (`?status=draft&kind=campaign&q=rent`). */
function readPostSearch(query: string): PostSearch {
  const params = new URLSearchParams(query);
  const kind = params.get('kind');
  const status = params.get('status');
  return {
    q: params.get('q') ?? '',
    kind: POST_KINDS.find((known) => known === kind) ?? '',
    status: POST_LIST_STATUSES.find((known) => known === status) ?? '',
  };
}

/** The address's query for a search: only what is set, so the plain list is `/desk/posts`. */
function postSearchQuery(search: PostSearch): string {
  const params = new URLSearchParams();
  if (search.status) params.set('status', search.status);
  if (search.kind) params.set('kind', search.kind);
  if (search.q.trim()) params.set('q', search.q.trim());
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * /desk/posts: every post by kind and status, newest change first, 50 at a time, with a search;
 * editors and owners publish a draft or take a post off the site from here, after a confirmation
 * that names the address. Writers see the list (their drafts among them) without those buttons.
 * The search lives in the address: a filtered list can be bookmarked, and Back returns to it.
 * Posts are selected (each, all on the page, or all the search finds) for the bulk actions
 * (posts-bulk-bar.tsx); `?status=deleted` is the Trash, where owners restore them.
 */
export function PostsPage({ staff }: { staff: DeskStaff }) {
  const { search } = useLocation();
  // A new search (or Back to an older one) starts again from its first page.
  return <PostsList key={search} staff={staff} search={readPostSearch(search)} />;
}

function PostsList({ staff, search }: { staff: DeskStaff; search: PostSearch }) {
  const navigate = useNavigate();
  const [draft, setDraft] = useState(search);
  // The cursors of the pages seen: the last is the page shown (null: the first).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors.at(-1) ?? null;
  const [posts, reload] = useDeskData(
    `${search.q}|${search.kind}|${search.status}|${cursor ?? ''}`,
    (signal) => fetchPosts(search, cursor, signal),
  );
  // The tiers' names, for the posts kept for some tiers (their slugs until the names load).
  const [postTiers] = useDeskData('post-tiers', fetchPostTiers);
  const tierNames = postTiers.state === 'ready' ? postTiers.data.tiers : null;
  const [pending, setPending] = useState<Pending | null>(null);
  const [working, setWorking] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  // Every post the search finds, on every page: the bulk action takes the search, not ids.
  const [allMatching, setAllMatching] = useState(false);
  const [bulkResult, setBulkResult] = useState<BulkResult | null>(null);
  const [titles, setTitles] = useState<ReadonlyMap<number, string>>(new Map());
  const trash = search.status === 'deleted';
  const mayPublish = staff.role !== 'writer' && !trash;
  const shown = posts.state === 'ready' ? posts.data.posts : [];
  const total = posts.state === 'ready' ? posts.data.total : 0;
  const allOnPage = shown.length > 0 && shown.every((post) => allMatching || selected.has(post.id));
  const someOnPage = shown.some((post) => allMatching || selected.has(post.id));
  const count = allMatching ? total : selected.size;
  const selection: BulkSelection = allMatching
    ? {
        filter: {
          ...(search.kind && { kind: search.kind }),
          ...(search.status && { status: search.status }),
          ...(search.q.trim() && { q: search.q.trim() }),
        },
      }
    : { ids: [...selected] };

  function select(ids: number[], on: boolean) {
    // Leaving "all matching" keeps what this page shows selected, less what was unticked.
    const next = new Set(allMatching ? shown.map((post) => post.id) : selected);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    setAllMatching(false);
    setSelected(next);
  }

  function bulkDone(result: BulkResult | Error) {
    setOutcome(result instanceof Error ? { ok: false, text: describeError(result) } : null);
    setBulkResult(result instanceof Error ? null : result);
    if (!(result instanceof Error)) {
      setTitles(new Map(shown.map((post) => [post.id, post.title])));
      setSelected(new Set());
      setAllMatching(false);
    }
    reload();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void navigate({ search: postSearchQuery(draft) });
  }

  async function confirm() {
    if (!pending) return;
    setBulkResult(null);
    setWorking(true);
    try {
      const { post } = await changePostStatus(pending.post, pending.change);
      setOutcome({
        ok: true,
        text:
          pending.change === 'publish'
            ? `Published: ${post.title} is live at ${post.path}.`
            : `Unpublished: ${post.title} is off the site (${post.path} answers “gone”).`,
      });
      reload();
    } catch (error) {
      setOutcome({
        ok: false,
        text:
          error instanceof ApiError && error.code === 'edit_conflict'
            ? 'Someone changed this post since the list was loaded: look at it again, then retry.'
            : describeError(error instanceof Error ? error : new Error(String(error))),
      });
      reload();
    } finally {
      setWorking(false);
      setPending(null);
    }
  }

  return (
    <section aria-labelledby="posts-title">
      <style>{postsBulkCss}</style>
      <div className="desk__heading">
        <h1 id="posts-title">{trash ? 'Trash' : 'Posts'}</h1>
        <p className="posts-bulk__trash-link">
          {trash ? (
            <Link to="/desk/posts">Back to the posts</Link>
          ) : (
            <Link to="/desk/posts?status=deleted">Trash</Link>
          )}
        </p>
        {!trash && <NewPostChooser kind={search.kind} />}
      </div>
      {trash && (
        <p className="desk__lede">
          Deleted posts stay here for {TRASH_DAYS} days, their addresses answering “gone”; an owner
          restores them as they were. After that they are deleted for good.
        </p>
      )}
      <form className="desk-search" onSubmit={submit} role="search">
        <label className="desk-field desk-search__q">
          <span>Words in the title or text</span>
          <input
            type="search"
            value={draft.q}
            onChange={(event) => setDraft({ ...draft, q: event.target.value })}
            autoComplete="off"
          />
        </label>
        <label className="desk-field">
          <span>Kind</span>
          <select
            value={draft.kind}
            onChange={(event) => setDraft({ ...draft, kind: event.target.value as PostKind | '' })}
          >
            <option value="">Every kind</option>
            {POST_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </label>
        <label className="desk-field">
          <span>Status</span>
          <select
            value={draft.status}
            onChange={(event) =>
              setDraft({ ...draft, status: event.target.value as PostListStatus | '' })
            }
          >
            <option value="">Any status</option>
            {POST_LIST_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </label>
        <button className="button">Search</button>
      </form>

      <p className={outcome?.ok === false ? 'form-error' : 'desk__done'} role="status">
        {outcome?.text ?? ''}
      </p>
      <div role="status">{bulkResult && <BulkOutcome result={bulkResult} titles={titles} />}</div>
      {pending && (
        <ConfirmBox
          confirmLabel={pending.change === 'publish' ? 'Yes, publish' : 'Yes, unpublish'}
          busy={working}
          onConfirm={() => void confirm()}
          onCancel={() => setPending(null)}
        >
          {pending.change === 'publish'
            ? `Publish “${pending.post.title}” at ${pending.post.path}? Readers see it at once.`
            : `Take “${pending.post.title}” off the site? ${pending.post.path} will answer “gone”.`}
        </ConfirmBox>
      )}

      {posts.state === 'error' && <p role="alert">{describeError(posts.error)}</p>}
      {posts.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {posts.state === 'ready' && posts.data.posts.length > 0 && (
        <div className="posts-bulk__select">
          <label className="posts-bulk__check">
            <input
              type="checkbox"
              checked={allOnPage}
              ref={(box) => {
                if (box) box.indeterminate = someOnPage && !allOnPage;
              }}
              onChange={(event) =>
                select(
                  shown.map((post) => post.id),
                  event.target.checked,
                )
              }
            />
            Select all on this page
          </label>
          {allOnPage && total > shown.length && !allMatching && (
            <button
              type="button"
              className="button button--outline desk__small"
              onClick={() => setAllMatching(true)}
            >
              Select all {total} matching this filter
            </button>
          )}
          {allMatching && <span>All {total} posts this filter finds are selected.</span>}
          {count > 0 && (
            <button
              type="button"
              className="button button--outline desk__small"
              onClick={() => {
                setSelected(new Set());
                setAllMatching(false);
              }}
            >
              Clear selection
            </button>
          )}
        </div>
      )}
      {count > 0 && (
        <PostsBulkBar
          staff={staff}
          trash={trash}
          selection={selection}
          count={count}
          onDone={bulkDone}
        />
      )}
      {posts.state === 'ready' &&
        (posts.data.posts.length === 0 ? (
          <p>{trash ? 'The Trash is empty.' : 'No post matches.'}</p>
        ) : (
          <DeskTable
            cards
            caption={cursors.length > 1 ? `Posts, page ${cursors.length}` : 'Posts'}
            captionHidden
            columns={['Select', 'Title', 'Kind', 'Status', 'Changed', mayPublish && 'Publishing']}
          >
            {posts.data.posts.map((post) => (
              <tr key={post.id}>
                <td data-label="Select" className="posts-bulk__row-check">
                  <input
                    type="checkbox"
                    aria-label={`Select ${post.title}`}
                    checked={allMatching || selected.has(post.id)}
                    onChange={(event) => select([post.id], event.target.checked)}
                  />
                </td>
                <td data-label="Title">
                  {post.deletedAt ? (
                    <strong>{post.title}</strong>
                  ) : (
                    <Link to={`/desk/posts/${post.id}`}>{post.title}</Link>
                  )}
                  <span className="desk__id">
                    {post.status === 'published' && !post.deletedAt ? (
                      <a href={post.path}>{post.path}</a>
                    ) : (
                      post.path
                    )}
                  </span>
                </td>
                <td data-label="Kind">
                  {KIND_LABELS[post.kind]}
                  {post.visibility !== 'public' && (
                    <>
                      {' '}
                      <span className="desk-badge">
                        <span className="visually-hidden">Who can read it: </span>
                        {describeReaders(post, tierNames)}
                      </span>
                    </>
                  )}
                </td>
                <td data-label="Status">
                  {post.deletedAt ? (
                    <>
                      <span className="desk-badge">Deleted {formatDate(post.deletedAt)}</span>{' '}
                      <span className="desk__when">
                        restorable until {formatDate(purgedAfter(post.deletedAt).toISOString())}
                      </span>
                    </>
                  ) : (
                    <PostStatusCell post={post} />
                  )}
                </td>
                <td data-label="Changed">{formatDateTime(post.updatedAt)}</td>
                {mayPublish && (
                  <td data-label="Publishing">
                    <button
                      type="button"
                      className="button button--outline"
                      aria-label={`${post.status === 'draft' ? 'Publish' : 'Unpublish'} ${post.title}`}
                      onClick={() => {
                        setOutcome(null);
                        setBulkResult(null);
                        setPending({
                          post,
                          change: post.status === 'draft' ? 'publish' : 'unpublish',
                        });
                      }}
                    >
                      {post.status === 'draft' ? 'Publish' : 'Unpublish'}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </DeskTable>
        ))}
      {posts.state === 'ready' && (cursors.length > 1 || posts.data.nextCursor) && (
        <DeskPager cursors={cursors} next={posts.data.nextCursor} onCursors={setCursors} />
      )}
    </section>
  );
}

/** A post's status on the list: its badge, and when it goes or went live, or that it waits. */
function PostStatusCell({ post }: { post: PostJson }) {
  return (
    <>
      <span className={post.status === 'published' ? 'desk-badge desk-badge--on' : 'desk-badge'}>
        {STATUS_LABELS[post.status]}
      </span>{' '}
      {post.status === 'scheduled' && post.publishedAt
        ? `for ${formatDateTime(post.publishedAt)}`
        : post.status === 'published' && post.publishedAt
          ? formatDate(post.publishedAt)
          : post.submittedAt
            ? 'submitted for publishing'
            : ''}
    </>
  );
}
