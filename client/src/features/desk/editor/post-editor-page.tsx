import type { Editor } from '@tiptap/react';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from '../../../lib/router';
import type { DeskStaff } from '../../../../../contract/desk-api';
import { POST_KINDS, type PostJson, type PostKind } from '../../../../../contract/posts';
import { isNetworkError } from '../../../lib/api-client';
import { useDocumentHead } from '../../../lib/document-head';
import { ConfirmBox } from '../confirm-box';
import { BodyEditor } from './body-editor';
import { NewsletterPanel } from './newsletter-panel';
import {
  createPost,
  fetchPost,
  fetchRevisions,
  previewUrl,
  publishPost,
  restoreRevision,
  savePost,
  submitPost,
  unpublishPost,
  uploadImage,
  type Revision,
} from './post-api';
import {
  changesOf,
  emptyForm,
  fieldValue,
  formatLocal,
  formOf,
  KIND_FIELDS,
  KIND_LABELS,
  KINDS_WITH_BODY,
  listText,
  localInputValue,
  parseList,
  timeZone,
  withField,
  type FieldSpec,
  type PostForm,
} from './post-form';
import editorCss from './editor.css?inline';

/** How long after the last keystroke a draft is saved. */
const AUTOSAVE_MS = 2_500;

type SaveState =
  | { state: 'saved'; at: string }
  | { state: 'dirty' }
  | { state: 'saving' }
  | { state: 'kept-here' }
  | { state: 'offline' }
  | { state: 'error'; message: string };

/** A change waiting for the staff member's confirmation. */
type Pending =
  | { change: 'publish' }
  | { change: 'schedule'; at: string }
  | { change: 'unpublish' }
  | { change: 'restore'; revision: Revision };

/** What this browser keeps of unsaved work, per post, until it is saved. */
interface LocalCopy {
  version: number;
  form: PostForm;
  at: string;
}
const localKey = (id: number) => `cohort.desk.post.${id}`;
function readLocal(id: number): LocalCopy | null {
  try {
    const text = localStorage.getItem(localKey(id));
    return text ? (JSON.parse(text) as LocalCopy) : null;
  } catch {
    return null;
  }
}
function writeLocal(id: number, copy: LocalCopy | null) {
  try {
    if (copy) localStorage.setItem(localKey(id), JSON.stringify(copy));
    else localStorage.removeItem(localKey(id));
  } catch {
    // A full or blocked storage: the server's copy is what there is.
  }
}

const same = (a: PostForm, b: PostForm) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Writing a post (/desk/posts/new, /desk/posts/:id): the title, the body in the rich-text editor,
 * the kind's fields, and what can be done with it. Nothing typed is lost: a draft saves itself a
 * moment after typing stops and as the page closes; a live post's edits wait for "Publish changes"
 * (a typo fixed is live when the writer says so); every edit is kept in this browser until the
 * server has it, so a lost connection or a closed tab loses nothing; and a save that crosses
 * another staff member's shows both versions to choose from.
 */
export default function PostEditorPage({ staff }: { staff: DeskStaff }) {
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const id = params.id && /^\d+$/.test(params.id) ? Number(params.id) : null;
  const newKind = POST_KINDS.find((kind) => kind === search.get('kind')) ?? 'article';

  const [post, setPost] = useState<PostJson | null>(null);
  const [form, setForm] = useState<PostForm | null>(id === null ? emptyForm(newKind) : null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [save, setSave] = useState<SaveState>({ state: 'saved', at: '' });
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [conflict, setConflict] = useState<PostJson | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [scheduleAt, setScheduleAt] = useState('');
  const [preview, setPreview] = useState<{ as: 'visitor' | 'member'; width: 390 | 1280 } | null>(
    null,
  );
  const [revisions, setRevisions] = useState<Revision[] | null>(null);
  const editorRef = useRef<Editor | null>(null);
  const [editorKey, setEditorKey] = useState(0);

  const kind: PostKind = post?.kind ?? newKind;
  const live = post !== null && post.status !== 'draft';
  const mayPublish = staff.role !== 'writer';
  useDocumentHead(form?.title ? `${form.title} · Desk` : 'New post · Desk');

  // Latest values for the timers and the page-closing handler.
  const latest = useRef({ post, form, save, conflict });
  useLayoutEffect(() => {
    latest.current = { post, form, save, conflict };
  });

  /** Puts a post in the form (and the editor), as loaded, restored or taken from another save. */
  const load = (next: PostJson, message?: string) => {
    setPost(next);
    setForm(formOf(next));
    setEditorKey((key) => key + 1);
    setSave({ state: 'saved', at: next.updatedAt });
    writeLocal(next.id, null);
    if (message) setNotice(message);
  };

  useEffect(() => {
    if (id === null) return;
    // The post just created here, now at its own address: it is in the form already, with what
    // was typed since.
    if (latest.current.post?.id === id) return;
    let cancelled = false;
    fetchPost(id)
      .then(({ post: loaded }) => {
        if (cancelled) return;
        setPost(loaded);
        const local = readLocal(id);
        if (local && !same(local.form, formOf(loaded))) {
          if (local.version === loaded.version) {
            setForm(local.form);
            // A draft's come back to be saved; a live post's wait for "Publish changes".
            setSave(loaded.status === 'draft' ? { state: 'dirty' } : { state: 'kept-here' });
            setNotice(
              `Your unsaved changes from ${formatLocal(local.at)} were kept in this browser: they are back.`,
            );
          } else {
            // Saved since by someone else: both, to choose from.
            setForm(local.form);
            setConflict(loaded);
          }
        } else {
          setForm(formOf(loaded));
          setSave({ state: 'saved', at: loaded.updatedAt });
        }
      })
      .catch((error: unknown) => {
        if (!cancelled) setLoadError(error instanceof Error ? error.message : 'Could not load.');
      });
    return () => {
      cancelled = true;
    };
  }, [id]);

  const saving = useRef<Promise<PostJson | null> | null>(null);
  /**
   * Saves the form now: creates the post if new. Answers the saved post, or null. One save at a
   * time: one asked for while another is on its way follows it (two at once would carry the same
   * version, and the second would be refused as a conflict with the first).
   */
  function saveNow(options: { keepalive?: boolean } = {}): Promise<PostJson | null> {
    const before = saving.current;
    if (before) {
      setSave({ state: 'saving' });
      return before.then(() => saveRef.current(options));
    }
    const run = saveOnce(options).finally(() => {
      saving.current = null;
    });
    saving.current = run;
    return run;
  }

  async function saveOnce(options: { keepalive?: boolean }): Promise<PostJson | null> {
    const { post: current, form: now, conflict: open } = latest.current;
    if (!now || open) return current;
    if (current && same(now, formOf(current))) return current;
    if (!current && now.title.trim() === '') return null;
    setSave({ state: 'saving' });
    setProblem(null);
    try {
      if (!current) {
        const { post: created } = await createPost(kind, changesOf(now, kind));
        settle(created, now);
        navigate(`/desk/posts/${created.id}`, { replace: true });
        return created;
      }
      const result = await savePost(current.id, current.version, changesOf(now, kind), options);
      unreachable.current = false;
      if (!result.ok) {
        // Our own save, whose answer was lost on the way back (the connection dropped once the
        // server had it): saved, not someone else's change.
        if (same(formOf(result.theirs), now)) {
          settle(result.theirs, now);
          return result.theirs;
        }
        setConflict(result.theirs);
        setSave({ state: 'dirty' });
        return null;
      }
      settle(result.post, now);
      return result.post;
    } catch (error) {
      if (isNetworkError(error)) {
        unreachable.current = true;
        setSave({ state: 'offline' });
      } else {
        const message = error instanceof Error ? error.message : 'The save failed.';
        setSave({ state: 'error', message });
        setProblem(message);
      }
      return null;
    }
  }
  /**
   * A save the server has (`sent` is the form it was made from): what was typed since it was sent
   * stays, kept in this browser, and is saved next.
   */
  function settle(saved: PostJson, sent: PostForm) {
    setPost(saved);
    // A save waiting for this one reads it before React draws it.
    latest.current = { ...latest.current, post: saved };
    const typedSince = latest.current.form;
    if (typedSince && !same(typedSince, sent)) {
      writeLocal(saved.id, {
        version: saved.version,
        form: typedSince,
        at: new Date().toISOString(),
      });
      setSave({ state: 'dirty' });
    } else {
      writeLocal(saved.id, null);
      setSave({ state: 'saved', at: saved.updatedAt });
    }
  }

  // The timers and the page-closing handlers call the latest saveNow.
  const saveRef = useRef(saveNow);
  /**
   * The last save could not reach the server (until one does, or the browser is back online):
   * a closing page then sends nothing (its words are in this browser). The browser's own
   * navigator.onLine can lag behind, and a request sent as the page closes outlives it.
   */
  const unreachable = useRef(false);
  useLayoutEffect(() => {
    saveRef.current = saveNow;
  });

  function change(next: PostForm) {
    const current = latest.current.post;
    // The editor may report a change that changes nothing (a selection, a blur): nothing to save.
    const before = latest.current.form;
    if (before && same(before, next)) return;
    setForm(next);
    latest.current = { ...latest.current, form: next };
    if (current) {
      writeLocal(current.id, {
        version: current.version,
        form: next,
        at: new Date().toISOString(),
      });
    }
    setSave(current && current.status !== 'draft' ? { state: 'kept-here' } : { state: 'dirty' });
  }

  // A draft saves itself a moment after the typing stops; a live post waits for the writer.
  useEffect(() => {
    if (save.state !== 'dirty' || live || conflict) return;
    const timer = setTimeout(() => void saveRef.current(), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [form, save.state, live, conflict]);

  // Back online: save what waited.
  useEffect(() => {
    const online = () => {
      unreachable.current = false;
      if (latest.current.save.state === 'offline') void saveRef.current();
    };
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, []);

  // Leaving: a draft's last words go to the server (a request that outlives the page) unless the
  // browser knows it is offline; anything unsaved is in this browser, and the browser asks before
  // the page closes.
  useEffect(() => {
    const leaving = (event: BeforeUnloadEvent) => {
      const { save: state, post: current } = latest.current;
      if (state.state === 'saved') return;
      if (current && current.status === 'draft' && navigator.onLine && !unreachable.current) {
        void saveRef.current({ keepalive: true });
      }
      event.preventDefault();
    };
    const hidden = () => {
      const { save: state, post: current } = latest.current;
      if (
        document.visibilityState === 'hidden' &&
        navigator.onLine &&
        !unreachable.current &&
        state.state === 'dirty' &&
        current?.status === 'draft'
      ) {
        void saveRef.current({ keepalive: true });
      }
    };
    window.addEventListener('beforeunload', leaving);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('beforeunload', leaving);
      document.removeEventListener('visibilitychange', hidden);
    };
  }, []);

  async function act(work: () => Promise<{ post: PostJson }>, done: string) {
    setProblem(null);
    setNotice(null);
    try {
      const { post: next } = await work();
      load(next, done);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'That did not work.');
    }
  }

  async function confirmPending() {
    const change = pending;
    setPending(null);
    if (!change) return;
    const saved = await saveNow();
    if (!saved) return;
    switch (change.change) {
      case 'publish':
        return act(() => publishPost(saved), `Published at ${saved.path}.`);
      case 'schedule':
        return act(
          () => publishPost(saved, change.at),
          `Scheduled for ${formatLocal(change.at)} at ${saved.path}.`,
        );
      case 'unpublish':
        return act(() => unpublishPost(saved), `Taken off the site: ${saved.path} answers 410.`);
      case 'restore':
        setRevisions(null);
        return act(
          () => restoreRevision(saved, change.revision.version),
          `Restored version ${change.revision.version} (as a new save).`,
        );
    }
  }

  function resolveConflict(choice: 'mine' | 'theirs') {
    const theirs = conflict;
    if (!theirs || !form) return;
    setConflict(null);
    if (choice === 'theirs') {
      load(theirs, 'You took the other version: yours is no longer in the editor.');
      return;
    }
    // Mine, over theirs: saved on top of their version (theirs stays in the history).
    setPost(theirs);
    latest.current = { ...latest.current, post: theirs, conflict: null };
    writeLocal(theirs.id, { version: theirs.version, form, at: new Date().toISOString() });
    setSave({ state: 'dirty' });
    void saveNow().then((saved) => {
      if (saved) setNotice('Your version is saved; theirs is in the history.');
    });
  }

  if (loadError) return <p role="alert">{loadError}</p>;
  if (!form) return <p className="desk__loading">Loading…</p>;

  const set = (patch: Partial<PostForm>) => change({ ...form, ...patch });
  const setField = (name: string, value: unknown) =>
    change({ ...form, fields: withField(form.fields, name, value) });

  return (
    <section className="post-editor" aria-labelledby="editor-title">
      <style>{editorCss}</style>
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
          {describeSave(save, live)}
        </p>
      </div>

      {notice && <p className="desk__done">{notice}</p>}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}

      {conflict && <ConflictPanel mine={form} theirs={conflict} onChoose={resolveConflict} />}

      {pending && post && (
        <ConfirmBox
          confirmLabel={`Yes, ${pending.change}`}
          onConfirm={() => void confirmPending()}
          onCancel={() => setPending(null)}
        >
          {describePending(pending, form.title, post.path)}
        </ConfirmBox>
      )}

      <div className="post-editor__grid">
        <div className="post-editor__main">
          <label className="desk-field post-editor__title">
            <span>Title</span>
            <input
              value={form.title}
              onChange={(event) => set({ title: event.target.value })}
              maxLength={200}
              required
            />
          </label>
          {KINDS_WITH_BODY.includes(kind) ? (
            <BodyEditor
              key={editorKey}
              markdown={form.body}
              onChange={(body) => {
                const now = latest.current.form;
                if (now && now.body !== body) change({ ...now, body });
              }}
              onEditor={(editor) => {
                editorRef.current = editor;
              }}
              onError={setProblem}
            />
          ) : null}
          {KIND_FIELDS[kind].map((spec) => (
            <KindField
              key={spec.name}
              spec={spec}
              value={fieldValue(form.fields, spec.name)}
              onChange={(value) => setField(spec.name, value)}
            />
          ))}
        </div>

        <aside className="post-editor__side" aria-label="Publishing">
          <div className="button-row post-editor__actions">
            {!live && (
              <button type="button" className="button" onClick={() => void saveNow()}>
                Save draft
              </button>
            )}
            {live && mayPublish && (
              <button
                type="button"
                className="button button--accent"
                onClick={() => void saveNow()}
              >
                Publish changes
              </button>
            )}
            <button
              type="button"
              className="button button--outline"
              onClick={() => {
                void saveNow().then((saved) => {
                  if (saved) setPreview(preview ?? { as: 'visitor', width: 1280 });
                });
              }}
            >
              Preview
            </button>
            {!live && mayPublish && (
              <button
                type="button"
                className="button button--accent"
                disabled={!post && form.title.trim() === ''}
                onClick={() => setPending({ change: 'publish' })}
              >
                Publish
              </button>
            )}
            {live && mayPublish && (
              <button
                type="button"
                className="button button--outline"
                onClick={() => setPending({ change: 'unpublish' })}
              >
                Unpublish
              </button>
            )}
            {!mayPublish && post && post.status === 'draft' && (
              <button
                type="button"
                className="button button--accent"
                disabled={post.submittedAt !== null}
                onClick={() => {
                  void saveNow().then((saved) => {
                    if (saved)
                      void act(
                        () => submitPost(saved),
                        'Submitted: the editors have been told by mail.',
                      );
                  });
                }}
              >
                {post.submittedAt ? 'Submitted for publishing' : 'Submit for publishing'}
              </button>
            )}
          </div>

          {mayPublish && post?.status !== 'published' && (
            <div className="post-editor__schedule">
              <label className="desk-field">
                <span>Go live at (your time, {timeZone()})</span>
                <input
                  type="datetime-local"
                  value={
                    scheduleAt ||
                    (post?.status === 'scheduled' && post.publishedAt
                      ? localInputValue(post.publishedAt)
                      : '')
                  }
                  onChange={(event) => setScheduleAt(event.target.value)}
                />
              </label>
              <button
                type="button"
                className="button button--outline"
                disabled={!scheduleAt}
                onClick={() => {
                  const at = new Date(scheduleAt);
                  if (Number.isNaN(at.getTime()) || at.getTime() <= Date.now()) {
                    setProblem('Choose a time in the future to schedule it.');
                    return;
                  }
                  setPending({ change: 'schedule', at: at.toISOString() });
                }}
              >
                Schedule
              </button>
              {post?.status === 'scheduled' && post.publishedAt && (
                <p className="desk__small">Scheduled for {formatLocal(post.publishedAt)}.</p>
              )}
            </div>
          )}

          <label className="desk-field">
            <span>Address (slug)</span>
            <input
              value={form.slug}
              onChange={(event) => set({ slug: event.target.value })}
              placeholder="made from the title"
            />
          </label>
          {post && <p className="desk__id">{post.path}</p>}
          <label className="desk-field">
            <span>Who can read it</span>
            <select
              value={form.visibility}
              onChange={(event) =>
                set({ visibility: event.target.value === 'members' ? 'members' : 'public' })
              }
            >
              <option value="public">Everyone</option>
              <option value="members">
                Members (others read up to the “Members only from here” line)
              </option>
            </select>
          </label>
          {kind === 'article' && (
            <FeatureImage
              src={form.featureImage}
              alt={form.featureImageAlt}
              onChange={(patch) => set(patch)}
              onError={setProblem}
            />
          )}
          <details className="post-editor__seo">
            <summary>Search and sharing</summary>
            <label className="desk-field">
              <span>SEO title</span>
              <input
                value={form.seoTitle}
                maxLength={120}
                onChange={(event) => set({ seoTitle: event.target.value })}
              />
            </label>
            <label className="desk-field">
              <span>SEO description</span>
              <textarea
                value={form.seoDescription}
                maxLength={300}
                onChange={(event) => set({ seoDescription: event.target.value })}
              />
            </label>
          </details>
          {post && (kind === 'newsletter' || kind === 'article') && (
            <NewsletterPanel post={post} changes={changesOf(form, kind)} mayPublish={mayPublish} />
          )}
          {post && (
            <details
              className="post-editor__history"
              onToggle={(event) => {
                if ((event.target as HTMLDetailsElement).open) {
                  void fetchRevisions(post.id).then(({ revisions: list }) => setRevisions(list));
                }
              }}
            >
              <summary>History</summary>
              {revisions === null ? (
                <p className="desk__loading">Loading…</p>
              ) : revisions.length === 0 ? (
                <p className="desk__empty">No earlier versions yet.</p>
              ) : (
                <ol className="post-editor__revisions" reversed>
                  {revisions.map((revision) => (
                    <li key={revision.version}>
                      <span>
                        Version {revision.version} · {formatLocal(revision.savedAt)}
                        {revision.savedByEmail ? ` · ${revision.savedByEmail}` : ''}
                      </span>
                      <button
                        type="button"
                        className="button button--outline"
                        aria-label={`Restore version ${revision.version}`}
                        onClick={() => setPending({ change: 'restore', revision })}
                      >
                        Restore
                      </button>
                    </li>
                  ))}
                </ol>
              )}
            </details>
          )}
        </aside>
      </div>

      {preview && post && (
        <PreviewPanel
          postId={post.id}
          changes={changesOf(form, kind)}
          as={preview.as}
          width={preview.width}
          onChange={setPreview}
          onClose={() => setPreview(null)}
        />
      )}
    </section>
  );
}

/**
 * An article's feature image: uploaded here (it becomes the page's hero and its cards' picture, in
 * several widths), with the alt text publishing needs.
 */
function FeatureImage({
  src,
  alt,
  onChange,
  onError,
}: {
  src: string;
  alt: string;
  onChange: (patch: Pick<PostForm, 'featureImage' | 'featureImageAlt'>) => void;
  onError: (message: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <fieldset className="post-editor__feature">
      <legend>Feature image</legend>
      {src ? (
        <img src={src} alt="" className="post-editor__feature-preview" width={320} height={180} />
      ) : (
        <p className="desk__small">None: the page shows artwork drawn from its address.</p>
      )}
      <p className="button-row">
        <label className="button button--outline">
          {busy ? 'Uploading…' : src ? 'Replace' : 'Upload'}
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            aria-label="Upload feature image"
            className="visually-hidden"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (!file) return;
              setBusy(true);
              uploadImage(file)
                .then((image) => onChange({ featureImage: image.url, featureImageAlt: alt }))
                .catch((error: unknown) =>
                  onError(error instanceof Error ? error.message : 'The upload failed.'),
                )
                .finally(() => setBusy(false));
            }}
          />
        </label>
        {src && (
          <button
            type="button"
            className="button button--outline"
            onClick={() => onChange({ featureImage: '', featureImageAlt: '' })}
          >
            Remove
          </button>
        )}
      </p>
      {src && (
        <label className="desk-field">
          <span>Feature image alt text</span>
          <input
            value={alt}
            onChange={(event) =>
              onChange({ featureImage: src, featureImageAlt: event.target.value })
            }
          />
        </label>
      )}
    </fieldset>
  );
}

function statusLabel(post: PostJson): string {
  if (post.status === 'published') return 'published';
  if (post.status === 'scheduled') return 'scheduled';
  return post.submittedAt ? 'draft, submitted' : 'draft';
}

function describeSave(save: SaveState, live: boolean): string {
  switch (save.state) {
    case 'saved':
      return save.at ? `Saved ${formatLocal(save.at)}` : '';
    case 'dirty':
      return 'Unsaved changes';
    case 'saving':
      return 'Saving…';
    case 'kept-here':
      return live
        ? 'Changes kept in this browser: “Publish changes” puts them on the site'
        : 'Changes kept in this browser';
    case 'offline':
      return 'Offline: your changes are kept in this browser and saved when the connection is back';
    case 'error':
      return `Not saved: ${save.message}`;
  }
}

function describePending(pending: Pending, title: string, path: string): ReactNode {
  const address = `${window.location.origin}${path}`;
  switch (pending.change) {
    case 'publish':
      return `Publish “${title}” now at ${address}?`;
    case 'schedule':
      return `Schedule “${title}” to go live at ${address} on ${formatLocal(pending.at)}?`;
    case 'unpublish':
      return `Take “${title}” off the site? ${address} will answer “gone”.`;
    case 'restore':
      return `Restore version ${pending.revision.version} of “${title}”? What is there now stays in the history.`;
  }
}

function ConflictPanel({
  mine,
  theirs,
  onChoose,
}: {
  mine: PostForm;
  theirs: PostJson;
  onChoose: (choice: 'mine' | 'theirs') => void;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div
      className="desk__notice post-editor__conflict"
      role="alertdialog"
      aria-labelledby="conflict-title"
    >
      <h2 id="conflict-title">Someone else saved this post while you were writing</h2>
      <p>
        Both versions are here. Keep yours (theirs stays in the history), take theirs, or copy yours
        out first.
      </p>
      <div className="post-editor__versions">
        <section aria-label="Your version">
          <h3>Yours</h3>
          <p className="post-editor__version-title">{mine.title}</p>
          <pre>{mine.body}</pre>
        </section>
        <section aria-label="Their version">
          <h3>Theirs (saved {formatLocal(theirs.updatedAt)})</h3>
          <p className="post-editor__version-title">{theirs.title}</p>
          <pre>{theirs.body}</pre>
        </section>
      </div>
      <p className="button-row">
        <button type="button" className="button button--accent" onClick={() => onChoose('mine')}>
          Keep mine
        </button>
        <button type="button" className="button button--outline" onClick={() => onChoose('theirs')}>
          Take theirs
        </button>
        <button
          type="button"
          className="button button--outline"
          onClick={() => {
            void navigator.clipboard
              .writeText(`${mine.title}\n\n${mine.body}`)
              .then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy mine'}
        </button>
      </p>
    </div>
  );
}

/**
 * The page the post would be, drawn by the server from the editor's content (saved or not), as a
 * visitor or a member sees it, at a phone's width or a desktop's.
 */
function PreviewPanel({
  postId,
  changes,
  as,
  width,
  onChange,
  onClose,
}: {
  postId: number;
  changes: Record<string, unknown>;
  as: 'visitor' | 'member';
  width: 390 | 1280;
  onChange: (next: { as: 'visitor' | 'member'; width: 390 | 1280 }) => void;
  onClose: () => void;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const json = JSON.stringify(changes);
  useEffect(() => {
    formRef.current?.submit();
  }, [json, as, width]);
  return (
    <div className="post-editor__preview" role="dialog" aria-label="Preview">
      <div className="post-editor__preview-bar">
        <div role="group" aria-label="Reader" className="button-row">
          {(['visitor', 'member'] as const).map((reader) => (
            <button
              key={reader}
              type="button"
              className="button button--outline"
              aria-pressed={as === reader}
              onClick={() => onChange({ as: reader, width })}
            >
              As a {reader}
            </button>
          ))}
        </div>
        <div role="group" aria-label="Width" className="button-row">
          {([390, 1280] as const).map((size) => (
            <button
              key={size}
              type="button"
              className="button button--outline"
              aria-pressed={width === size}
              onClick={() => onChange({ as, width: size })}
            >
              {size === 390 ? 'Phone' : 'Desktop'}
            </button>
          ))}
        </div>
        <button type="button" className="button" onClick={onClose}>
          Close preview
        </button>
      </div>
      <form ref={formRef} method="post" action={previewUrl(postId)} target="post-preview" hidden>
        <input type="hidden" name="as" value={as} />
        <input type="hidden" name="post" value={json} />
      </form>
      <div className="post-editor__frame" data-width={width}>
        <iframe
          name="post-preview"
          title={`Preview as a ${as}, ${width === 390 ? 'phone' : 'desktop'} width`}
          style={{ width }}
        />
      </div>
    </div>
  );
}

function KindField({
  spec,
  value,
  onChange,
}: {
  spec: FieldSpec;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  switch (spec.type) {
    case 'text':
    case 'url':
    case 'date':
      return (
        <label className="desk-field">
          <span>{spec.label}</span>
          <input
            type={spec.type}
            value={text}
            placeholder={spec.hint}
            onChange={(e) => onChange(e.target.value)}
          />
        </label>
      );
    case 'textarea':
      return (
        <label className="desk-field">
          <span>{spec.label}</span>
          <textarea value={text} maxLength={spec.max} onChange={(e) => onChange(e.target.value)} />
        </label>
      );
    case 'number':
      return (
        <label className="desk-field">
          <span>{spec.label}</span>
          <input
            type="number"
            min={spec.min}
            max={spec.max}
            value={text}
            onChange={(e) => onChange(e.target.value === '' ? '' : Number(e.target.value))}
          />
        </label>
      );
    case 'select':
      return (
        <label className="desk-field">
          <span>{spec.label}</span>
          <select value={text} onChange={(e) => onChange(e.target.value)}>
            <option value="">Choose…</option>
            {spec.options.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        </label>
      );
    case 'checkbox':
      return (
        <label className="desk-check">
          <input
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(e.target.checked)}
          />{' '}
          {spec.label}
        </label>
      );
    case 'list':
      return (
        <ListField
          label={spec.label}
          hint={spec.hint}
          value={Array.isArray(value) ? value : []}
          onChange={onChange}
        />
      );
    case 'rows': {
      const rows = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
      const setRow = (index: number, name: string, cell: unknown) =>
        onChange(rows.map((row, i) => (i === index ? { ...row, [name]: cell } : row)));
      return (
        <fieldset className="desk-rows">
          <legend>{spec.label}</legend>
          {spec.hint && <p className="desk__small">{spec.hint}</p>}
          {rows.map((row, index) => (
            <div key={index} className="desk-rows__row">
              {spec.columns.map((column) => (
                <label key={column.name} className="desk-field">
                  <span>
                    {column.label} {index + 1}
                  </span>
                  <input
                    type={column.type}
                    value={row[column.name] === undefined ? '' : String(row[column.name])}
                    onChange={(e) =>
                      setRow(
                        index,
                        column.name,
                        column.type === 'number' ? Number(e.target.value) : e.target.value,
                      )
                    }
                  />
                </label>
              ))}
              <button
                type="button"
                className="button button--outline"
                onClick={() => onChange(rows.filter((_, i) => i !== index))}
              >
                Remove {index + 1}
              </button>
            </div>
          ))}
          <button
            type="button"
            className="button button--outline"
            onClick={() => onChange([...rows, {}])}
          >
            Add
          </button>
        </fieldset>
      );
    }
  }
}

/**
 * A list typed as text: what the writer types stays as typed (a comma at its end too, where the
 * next item begins) while it means the list the post has.
 */
function ListField({
  label,
  hint,
  value,
  onChange,
}: {
  label: string;
  hint?: string;
  value: readonly unknown[];
  onChange: (value: string[]) => void;
}) {
  const [text, setText] = useState(() => listText(value));
  // Another list arrived (the post loaded, a revision restored): show it.
  if (listText(parseList(text)) !== listText(value)) setText(listText(value));
  return (
    <label className="desk-field">
      <span>{label}</span>
      <input
        value={text}
        placeholder={hint}
        onChange={(e) => {
          setText(e.target.value);
          onChange(parseList(e.target.value));
        }}
      />
    </label>
  );
}
