import type { PostJson, PostKind } from '../../../../../contract/posts';
import { isNetworkError } from '../../../lib/api-client';
import type { SaveResult } from './post-api';
import { changesOf, formOf, withField, type PostForm } from './post-form';

/** How long after the last keystroke a draft saves itself. */
export const AUTOSAVE_MS = 2_500;

export type SaveState =
  | { state: 'saved'; at: string }
  | { state: 'dirty' }
  | { state: 'saving' }
  | { state: 'kept-here' }
  | { state: 'offline' }
  | { state: 'error'; message: string };

/** Everything the editor draws from, as one value: a new one after every change. */
export interface DraftState {
  /** The post as the server last answered it; null until a new post's first save. */
  post: PostJson | null;
  /** What is in the editor; null while the post loads. */
  form: PostForm | null;
  save: SaveState;
  /** Another staff member's save that crossed ours: both are shown until the writer chooses. */
  conflict: PostJson | null;
  /**
   * Counts the times the form was replaced by a post from the server (loaded, restored, theirs
   * taken): the body editor starts again from the new text each time.
   */
  replaced: number;
}

/** The server's side of a draft: post-api's calls in the page, stand-ins in tests. */
export interface DraftServer {
  create(kind: PostKind, changes: Record<string, unknown>): Promise<{ post: PostJson }>;
  save(
    id: number,
    version: number,
    changes: Record<string, unknown>,
    options: SaveOptions,
  ): Promise<SaveResult>;
}

/** `keepalive` lets a save sent as the page closes finish after it. */
export interface SaveOptions {
  keepalive?: boolean;
}

/** Where unsaved work waits for the server: the browser's localStorage, or a test's stand-in. */
export type KeptStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * What the sync listens to while the page is open: the window (back online, closing), the
 * document (hidden, as a phone does before it kills a tab) and whether the browser thinks it is
 * online.
 */
export interface DraftEnvironment {
  window: EventTarget;
  document: EventTarget & { readonly visibilityState: DocumentVisibilityState };
  navigator: { readonly onLine: boolean };
}

export interface DraftSyncOptions {
  /** A new post's kind; a saved post's own kind wins. */
  kind: PostKind;
  /** The form to start from: a new post's empty one, or null until the post is loaded. */
  form: PostForm | null;
  server: DraftServer;
  storage: KeptStorage;
}

/** What the page hears of the saves. */
export interface DraftEvents {
  /** A new post's first save: the page moves to the post's own address. */
  onCreated?: (post: PostJson) => void;
  /** A save's problem to show the writer; null as the next save starts (the last is old news). */
  onProblem?: (message: string | null) => void;
}

export interface DraftSync {
  getState(): DraftState;
  subscribe(listener: () => void): () => void;
  /** What the writer typed: kept in this browser at once, saved later (a draft by itself). */
  edit(patch: Partial<PostForm>): void;
  /** One of the kind's fields, by its dotted name. */
  editField(name: string, value: unknown): void;
  /** Saves the form now (creates a new post); answers the saved post, or null. */
  save(options?: SaveOptions): Promise<PostJson | null>;
  /** Puts a post the server answered in the form (published, restored...). */
  load(post: PostJson): void;
  /**
   * Puts a post loaded from the server in the form, or what this browser kept of it: answers when
   * the kept copy was made if unsaved work came back.
   */
  resume(loaded: PostJson): { keptAt: string } | null;
  /**
   * A new post's words this browser kept (the page was left before its first save) back in the
   * form: answers when they were kept, or null when there were none.
   */
  resumeNew(): { keptAt: string } | null;
  /** Drops a new post's kept words and starts it empty. */
  discardNew(empty: PostForm): void;
  /** Saves the writer's version over the other one (which stays in the history). */
  keepMine(): Promise<PostJson | null>;
  /** Takes the other version; answers false when there was no conflict to resolve. */
  takeTheirs(): boolean;
  /**
   * Saves by itself and as the page closes, telling the page through `events`, until the function
   * it answers is called.
   */
  start(environment: DraftEnvironment, events?: DraftEvents): () => void;
}

/** What this browser keeps of unsaved work, per post, until the server has it. */
interface KeptCopy {
  version: number;
  form: PostForm;
  at: string;
}

export const keptKey = (id: number) => `cohort.desk.post.${id}`;
/** Where a new post of a kind keeps its words until its first save creates it. */
export const keptNewKey = (kind: PostKind) => `cohort.desk.post.new.${kind}`;

/**
 * A value as text with its objects' keys in order: a field the editor added (the reading time)
 * and the same field where the server lists it make the same form.
 */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : inner,
  );
const same = (a: PostForm, b: PostForm) => canonical(a) === canonical(b);
const isLive = (post: PostJson | null) => post !== null && post.status !== 'draft';
const isDraft = (post: PostJson | null) => post !== null && post.status === 'draft';
const savedAt = (post: PostJson): SaveState => ({ state: 'saved', at: post.updatedAt });
const DIRTY: SaveState = { state: 'dirty' };

/**
 * A post being written, kept in step with the server: a draft saves itself a moment after typing
 * stops and as the page closes; a live post's edits wait for "Publish changes" (a typo fixed is
 * live when the writer says so); every edit is kept in this browser until the server has it, so a
 * lost connection or a closed tab loses nothing; one save goes out at a time; and a save that
 * crosses another staff member's holds both versions for the writer to choose. No React here:
 * use-draft-sync.ts binds it to the page.
 */
export function createDraftSync(options: DraftSyncOptions): DraftSync {
  const { server, storage } = options;
  let state: DraftState = {
    post: null,
    form: options.form,
    save: { state: 'saved', at: '' },
    conflict: null,
    replaced: 0,
  };
  const listeners = new Set<() => void>();
  /** The save on its way: the next one waits for it (both would carry the same version). */
  let inFlight: Promise<PostJson | null> | null = null;
  /**
   * The last save could not reach the server (until one does, or the browser is back online): a
   * closing page then sends nothing, its words being in this browser. navigator.onLine can lag
   * behind, and a request sent as the page closes outlives it.
   */
  let unreachable = false;
  let running = false;
  let events: DraftEvents = {};
  let autosave: ReturnType<typeof setTimeout> | undefined;
  /** What the autosave timer was last set for: it starts again when any of it changes. */
  let timedFor: unknown[] | null = null;

  function read(key: string): KeptCopy | null {
    try {
      const text = storage.getItem(key);
      return text ? (JSON.parse(text) as KeptCopy) : null;
    } catch {
      return null;
    }
  }

  function keep(id: number | null, copy: KeptCopy | null) {
    const key = id === null ? keptNewKey(options.kind) : keptKey(id);
    try {
      if (copy) storage.setItem(key, JSON.stringify(copy));
      else storage.removeItem(key);
    } catch {
      // A full or blocked storage: the server's copy is what there is.
    }
  }

  function update(patch: Partial<DraftState>) {
    state = { ...state, ...patch };
    timeAutosave();
    for (const listener of listeners) listener();
  }

  /** A draft saves itself once the typing has paused for AUTOSAVE_MS; a live post waits. */
  function timeAutosave() {
    const live = isLive(state.post);
    const now = [state.form, state.save.state, live, state.conflict];
    if (timedFor && now.every((value, index) => value === timedFor?.[index])) return;
    clearTimeout(autosave);
    timedFor = now;
    if (running && state.save.state === 'dirty' && !live && !state.conflict) {
      autosave = setTimeout(() => void save(), AUTOSAVE_MS);
    }
  }

  function edit(patch: Partial<PostForm>) {
    const before = state.form;
    if (!before) return;
    const next = { ...before, ...patch };
    // The editor may report a change that changes nothing (a selection, a blur): nothing to save.
    if (same(before, next)) return;
    const { post } = state;
    // A new post's words too, until its first save gives it an id.
    keep(post?.id ?? null, {
      version: post?.version ?? 0,
      form: next,
      at: new Date().toISOString(),
    });
    update({ form: next, save: isLive(post) ? { state: 'kept-here' } : DIRTY });
  }

  function save(saveOptions: SaveOptions = {}): Promise<PostJson | null> {
    const before = inFlight;
    if (before) {
      update({ save: { state: 'saving' } });
      return before.then(() => save(saveOptions));
    }
    const run = saveOnce(saveOptions).finally(() => {
      inFlight = null;
    });
    inFlight = run;
    return run;
  }

  async function saveOnce(saveOptions: SaveOptions): Promise<PostJson | null> {
    const { post: current, form: sent, conflict } = state;
    if (!sent || conflict) return current;
    if (current && same(sent, formOf(current))) return current;
    if (!current && sent.title.trim() === '') return null;
    const kind = current?.kind ?? options.kind;
    update({ save: { state: 'saving' } });
    events.onProblem?.(null);
    try {
      if (!current) {
        const { post: created } = await server.create(kind, changesOf(sent, kind));
        keep(null, null);
        settle(created, sent);
        events.onCreated?.(created);
        return created;
      }
      const result = await server.save(
        current.id,
        current.version,
        changesOf(sent, kind),
        saveOptions,
      );
      unreachable = false;
      if (!result.ok) {
        // Our own save, whose answer was lost on the way back (the connection dropped once the
        // server had it): saved, not someone else's change.
        if (same(formOf(result.theirs), sent)) {
          settle(result.theirs, sent);
          return result.theirs;
        }
        update({ conflict: result.theirs, save: DIRTY });
        return null;
      }
      settle(result.post, sent);
      return result.post;
    } catch (error) {
      if (isNetworkError(error)) {
        unreachable = true;
        update({ save: { state: 'offline' } });
      } else {
        const message = error instanceof Error ? error.message : 'The save failed.';
        update({ save: { state: 'error', message } });
        events.onProblem?.(message);
      }
      return null;
    }
  }

  /** A save the server has: what was typed since `sent` went out stays kept, and is saved next. */
  function settle(post: PostJson, sent: PostForm) {
    const typedSince = state.form;
    if (typedSince && !same(typedSince, sent)) {
      keep(post.id, { version: post.version, form: typedSince, at: new Date().toISOString() });
      update({ post, save: DIRTY });
    } else {
      keep(post.id, null);
      update({ post, save: savedAt(post) });
    }
  }

  function load(post: PostJson, patch: Partial<DraftState> = {}) {
    keep(post.id, null);
    update({
      ...patch,
      post,
      form: formOf(post),
      save: savedAt(post),
      replaced: state.replaced + 1,
    });
  }

  function resume(loaded: PostJson): { keptAt: string } | null {
    const kept = read(keptKey(loaded.id));
    const replaced = state.replaced + 1;
    if (!kept || same(kept.form, formOf(loaded))) {
      // What was kept is what the server has (a save sent as the page closed reached it).
      if (kept) keep(loaded.id, null);
      update({ post: loaded, form: formOf(loaded), save: savedAt(loaded), replaced });
      return null;
    }
    if (kept.version !== loaded.version) {
      // Saved since by someone else: both, to choose from.
      update({ post: loaded, form: kept.form, conflict: loaded, replaced });
      return null;
    }
    // A draft's come back to be saved; a live post's wait for "Publish changes".
    const waiting: SaveState = isDraft(loaded) ? DIRTY : { state: 'kept-here' };
    update({ post: loaded, form: kept.form, save: waiting, replaced });
    return { keptAt: kept.at };
  }

  function resumeNew(): { keptAt: string } | null {
    const kept = state.post ? null : read(keptNewKey(options.kind));
    if (!kept || !state.form || same(kept.form, state.form)) return null;
    update({ form: kept.form, save: DIRTY, replaced: state.replaced + 1 });
    return { keptAt: kept.at };
  }

  function discardNew(empty: PostForm) {
    if (state.post) return;
    keep(null, null);
    update({ form: empty, save: { state: 'saved', at: '' }, replaced: state.replaced + 1 });
  }

  function keepMine(): Promise<PostJson | null> {
    const { conflict: theirs, form: mine } = state;
    if (!theirs || !mine) return Promise.resolve(null);
    // Saved on top of their version: theirs stays in the history.
    keep(theirs.id, { version: theirs.version, form: mine, at: new Date().toISOString() });
    update({ post: theirs, conflict: null, save: DIRTY });
    return save();
  }

  function takeTheirs(): boolean {
    const theirs = state.conflict;
    if (!theirs || !state.form) return false;
    load(theirs, { conflict: null });
    return true;
  }

  function start(environment: DraftEnvironment, pageEvents: DraftEvents = {}): () => void {
    const { window: page, document: view, navigator: browser } = environment;
    // Back online: save what waited.
    const online = () => {
      unreachable = false;
      if (state.save.state === 'offline') void save();
    };
    // Leaving: a draft's last words go to the server unless the browser knows it is offline;
    // anything unsaved is in this browser, and the browser asks before the page closes.
    const leaving = (event: Event) => {
      if (state.save.state === 'saved') return;
      if (isDraft(state.post) && browser.onLine && !unreachable) void save({ keepalive: true });
      event.preventDefault();
    };
    // Hidden (a tab switched away from, a phone's app put aside): often the last moment a page
    // gets before it is discarded.
    const hidden = () => {
      if (
        view.visibilityState === 'hidden' &&
        browser.onLine &&
        !unreachable &&
        state.save.state === 'dirty' &&
        isDraft(state.post)
      ) {
        void save({ keepalive: true });
      }
    };
    page.addEventListener('online', online);
    page.addEventListener('beforeunload', leaving);
    view.addEventListener('visibilitychange', hidden);
    running = true;
    events = pageEvents;
    timedFor = null;
    timeAutosave();
    return () => {
      page.removeEventListener('online', online);
      page.removeEventListener('beforeunload', leaving);
      view.removeEventListener('visibilitychange', hidden);
      running = false;
      events = {};
      clearTimeout(autosave);
      timedFor = null;
    };
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    edit,
    editField(name, value) {
      if (state.form) edit({ fields: withField(state.form.fields, name, value) });
    },
    save,
    load,
    resume,
    resumeNew,
    discardNew,
    keepMine,
    takeTheirs,
    start,
  };
}
