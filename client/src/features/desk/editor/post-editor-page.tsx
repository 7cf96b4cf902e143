import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from '../../../lib/router';
import type { DeskStaff } from '../../../../../contract/desk-api';
import { KIND_FIELDS } from '../../../../../contract/post-editor-fields';
import {
  KINDS_WITH_PAGES,
  POST_KINDS,
  type PostJson,
  type PostKind,
} from '../../../../../contract/posts';
import { useDocumentHead } from '../../../lib/document-head';
import { ConfirmBox } from '../confirm-box';
import { BodyEditor } from './body-editor';
import { ConflictPanel } from './conflict-panel';
import type { SaveState } from './draft-sync';
import { FeatureImage } from './feature-image';
import { HistoryPanel } from './history-panel';
import { KindField } from './kind-fields';
import { AuthorsField } from './authors-field';
import { LeaveDialog, useLeaveGuard } from './leave-guard';
import { NewsletterPanel } from './newsletter-panel';
import { PostFiguresPanel } from './post-figures-panel';
import { confirmLabel, describePending, type PendingChange } from './pending-change';
import { publishPost, restoreRevision, submitPost, unpublishPost, type Revision } from './post-api';
import {
  addressPreview,
  changesOf,
  emptyForm,
  fieldValue,
  formatLocal,
  KIND_LABELS,
  KINDS_WITH_BODY,
  withBody,
} from './post-form';
import { firstPreview, PreviewPanel, type PreviewView } from './preview-panel';
import { PublishActions } from './publish-actions';
import { ReadersField, usePostTiers } from './readers-field';
import { SchedulePanel } from './schedule-panel';
import { SearchAndSharing } from './search-and-sharing';
import { useDraftSync } from './use-draft-sync';
import cardsCss from './cards-and-media.css?inline';
import editorCss from './editor.css?inline';
import figuresCss from './post-figures-panel.css?inline';

/**
 * Writing a post (/desk/posts/new, /desk/posts/:id): the title, the body in the rich-text editor,
 * the kind's fields, and what can be done with it. Keeping the text in step with the server
 * (saving by itself, offline, as the page closes, when another staff member saved first) is
 * draft-sync.ts's; this page draws it and asks before what changes the site.
 */
export default function PostEditorPage({ staff }: { staff: DeskStaff }) {
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const id = params.id && /^\d+$/.test(params.id) ? Number(params.id) : null;
  const newKind = POST_KINDS.find((kind) => kind === search.get('kind')) ?? 'article';

  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingChange | null>(null);
  const [preview, setPreview] = useState<PreviewView | null>(null);
  const [revisions, setRevisions] = useState<Revision[] | null>(null);
  const [resumedNew, setResumedNew] = useState(false);
  const { state, sync, loadError } = useDraftSync(id, newKind, {
    onCreated: (created) => navigate(`/desk/posts/${created.id}`, { replace: true }),
    onProblem: setProblem,
    onNotice: setNotice,
    onResumedNew: () => setResumedNew(true),
  });
  const { post, form, save, conflict } = state;
  const leave = useLeaveGuard(save.state !== 'saved');
  const postTiers = usePostTiers();

  const kind: PostKind = post?.kind ?? newKind;
  const live = post !== null && post.status !== 'draft';
  const mayPublish = staff.role !== 'writer';
  const address = form && addressPreview(kind, form, post);
  useDocumentHead(form?.title ? `${form.title} · Desk` : 'New post · Desk');

  /** A change the server made (published, restored...): the post as it answered, and what was done. */
  async function act(work: () => Promise<{ post: PostJson }>, done: string) {
    setProblem(null);
    setNotice(null);
    try {
      const { post: next } = await work();
      sync.load(next);
      setNotice(done);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'That did not work.');
    }
  }

  async function confirmPending() {
    const change = pending;
    setPending(null);
    if (!change) return;
    const saved = await sync.save();
    if (!saved) return;
    switch (change.change) {
      case 'publish':
      case 'publish-now':
        return act(() => publishPost(saved), `Published at ${saved.path}.`);
      case 'move':
        return act(
          async () => ({ post: saved }),
          `Published at ${saved.path}; ${change.from} redirects to it.`,
        );
      case 'schedule':
        return act(
          () => publishPost(saved, change.at),
          `Scheduled for ${formatLocal(change.at)} at ${saved.path}.`,
        );
      case 'unpublish':
        return act(() => unpublishPost(saved), `Taken off the site: ${saved.path} answers 410.`);
      case 'cancel-schedule':
        return act(() => unpublishPost(saved), 'Schedule cancelled: the post is a draft again.');
      case 'restore':
        setRevisions(null);
        return act(
          () => restoreRevision(saved, change.revision.version),
          `Restored version ${change.revision.version} (as a new save).`,
        );
    }
  }

  /** Leaving with unsaved work, asked first (useLeaveGuard): saved, or kept in this browser. */
  function leaveWith(saveFirst: boolean) {
    if (!saveFirst) return leave.leave();
    leave.stay();
    void sync.save().then((saved) => {
      if (saved) leave.leave();
    });
  }

  /** Saves, then goes on with the saved post (a save that did not happen stops there). */
  const afterSave = (next: (saved: PostJson) => void) => () => {
    void sync.save().then((saved) => {
      if (saved) next(saved);
    });
  };

  if (loadError) return <p role="alert">{loadError}</p>;
  if (!form) return <p className="desk__loading">Loading…</p>;

  return (
    <section className="post-editor" aria-labelledby="editor-title">
      <style>{editorCss + cardsCss + figuresCss}</style>
      <div className="post-editor__head">
        <p className="desk__back">
          <Link to="/desk/posts">← Posts</Link>
        </p>
        <h1 id="editor-title">
          {post
            ? `${KIND_LABELS[kind]} · ${statusLabel(post)}`
            : `New ${KIND_LABELS[kind].toLowerCase()}`}
        </h1>
        <p className="post-editor__state" role="status">
          {describeSave(save, live && post.status === 'scheduled' ? 'scheduled' : live)}
        </p>
      </div>

      {notice && (
        <p className="desk__done">
          {notice}{' '}
          {resumedNew && !post && (
            <button
              type="button"
              className="button button--outline"
              onClick={() => {
                sync.discardNew(emptyForm(kind));
                setResumedNew(false);
                setNotice(null);
              }}
            >
              Start a blank post instead
            </button>
          )}
        </p>
      )}
      {leave.leavingTo && (
        <LeaveDialog
          title={form.title}
          canSave={!live && form.title.trim() !== ''}
          onSaveAndLeave={() => leaveWith(true)}
          onLeave={() => leaveWith(false)}
          onStay={leave.stay}
        />
      )}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}

      {conflict && (
        <ConflictPanel
          mine={form}
          theirs={conflict}
          onKeepMine={() => {
            void sync.keepMine().then((saved) => {
              if (saved) setNotice('Your version is saved; theirs is in the history.');
            });
          }}
          onTakeTheirs={() => {
            if (sync.takeTheirs()) {
              setNotice('You took the other version: yours is no longer in the editor.');
            }
          }}
        />
      )}

      {pending && post && (
        // Asked from the actions at the foot of a phone's screen, far below: brought into view.
        <div ref={bringIntoView}>
          <ConfirmBox
            confirmLabel={confirmLabel(pending)}
            onConfirm={() => void confirmPending()}
            onCancel={() => setPending(null)}
          >
            {describePending(pending, form.title, post)}
          </ConfirmBox>
        </div>
      )}

      <div className="post-editor__grid">
        <div className="post-editor__main">
          <label className="desk-field post-editor__title">
            <span>Title</span>
            <input
              value={form.title}
              onChange={(event) => sync.edit({ title: event.target.value })}
              maxLength={200}
              required
            />
          </label>
          {(kind === 'campaign' || kind === 'boycott') && (
            <p className="desk__small">
              The story behind the {kind} (optional): the site shows it under its card.
            </p>
          )}
          {KINDS_WITH_BODY.includes(kind) ? (
            <BodyEditor
              key={state.replaced}
              markdown={form.body}
              onChange={(body) => sync.edit(withBody(sync.getState().form ?? form, body, kind))}
              onError={setProblem}
            />
          ) : null}
          {KIND_FIELDS[kind].map((spec) => (
            <KindField
              key={spec.name}
              spec={spec}
              value={fieldValue(form.fields, spec.name)}
              onChange={(value) => sync.editField(spec.name, value)}
            />
          ))}
          <AuthorsField
            value={form.fields.authors}
            writerEmail={staff.email}
            onChange={(slugs) => sync.editField('authors', slugs)}
          />
        </div>

        <aside className="post-editor__side" aria-label="Publishing">
          <PublishActions
            post={post}
            untitled={form.title.trim() === ''}
            mayPublish={mayPublish}
            address={address?.path ?? null}
            onSave={() => void sync.save()}
            onPreview={afterSave(() => setPreview((open) => open ?? firstPreview()))}
            onAsk={setPending}
            onSubmit={afterSave((saved) => {
              void act(() => submitPost(saved), 'Submitted: the editors have been told by mail.');
            })}
          />
          <SchedulePanel
            post={post}
            mayPublish={mayPublish}
            onAsk={setPending}
            onProblem={setProblem}
          />

          <label className="desk-field">
            <span>Address (slug)</span>
            <input
              value={form.slug}
              onChange={(event) => sync.edit({ slug: event.target.value })}
              placeholder="made from the title"
            />
          </label>
          {address?.path && <p className="desk__id">{address.path}</p>}
          {address?.problem && (
            <p className="desk__small" role="status">
              Address: {address.problem}
            </p>
          )}
          {/* Only a body can be divided into an opening for everyone and the rest for some. */}
          {KINDS_WITH_BODY.includes(kind) && (
            <ReadersField
              form={form}
              tiers={postTiers.tiers}
              problem={postTiers.problem}
              onChange={sync.edit}
            />
          )}
          {kind === 'article' && (
            <FeatureImage
              src={form.featureImage}
              alt={form.featureImageAlt}
              onChange={sync.edit}
              onError={setProblem}
            />
          )}
          <SearchAndSharing form={form} onChange={sync.edit} />
          {/* Figures are counted by page: campaigns, boycotts and resources have none of their own. */}
          {post?.status === 'published' && KINDS_WITH_PAGES.includes(post.kind) && (
            <PostFiguresPanel post={post} />
          )}
          {post && (kind === 'newsletter' || kind === 'article') && (
            <NewsletterPanel post={post} changes={changesOf(form, kind)} mayPublish={mayPublish} />
          )}
          {post && (
            <HistoryPanel
              current={post}
              revisions={revisions}
              onRead={setRevisions}
              onRestore={(revision) => setPending({ change: 'restore', revision })}
            />
          )}
        </aside>
      </div>

      {preview && post && (
        <PreviewPanel
          postId={post.id}
          changes={changesOf(form, kind)}
          view={preview}
          onChange={setPreview}
          onClose={() => setPreview(null)}
        />
      )}
    </section>
  );
}

/** A confirmation, scrolled to when it opens (one function, so not again at each render). */
const bringIntoView = (box: HTMLDivElement | null) => {
  box?.scrollIntoView({ block: 'nearest' });
};

function statusLabel(post: PostJson): string {
  if (post.status === 'published') return 'published';
  if (post.status === 'scheduled') return 'scheduled';
  return post.submittedAt ? 'draft, submitted' : 'draft';
}

function describeSave(save: SaveState, live: boolean | 'scheduled'): string {
  switch (save.state) {
    case 'saved':
      return save.at ? `Saved ${formatLocal(save.at)}` : '';
    case 'dirty':
      return 'Unsaved changes';
    case 'saving':
      return 'Saving…';
    case 'kept-here':
      if (live === 'scheduled') {
        return 'Changes kept in this browser: “Save changes” keeps them for when it goes live';
      }
      return live
        ? 'Changes kept in this browser: “Publish changes” puts them on the site'
        : 'Changes kept in this browser';
    case 'offline':
      return 'Offline: your changes are kept in this browser and saved when the connection is back';
    case 'error':
      return `Not saved: ${save.message}`;
  }
}
