import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PostJson, PostKind } from '../../../../../contract/posts';
import { ApiError } from '../../../lib/api-client';
import {
  AUTOSAVE_MS,
  createDraftSync,
  keptKey,
  keptNewKey,
  type DraftServer,
  type DraftSync,
  type KeptStorage,
  type SaveOptions,
} from './draft-sync';
import type { SaveResult } from './post-api';
import { emptyForm, formOf, type PostForm } from './post-form';

// The editor's draft kept in step with the server, with the clock in the test's hands: when a draft
// saves itself, what a save on its way does to the next, what happens without a connection, when
// another staff member saved first, and what a closing page sends.

const START = new Date('2026-11-27T10:00:00.000Z');

function postOf(overrides: Partial<PostJson> = {}): PostJson {
  return {
    id: 7,
    kind: 'article',
    slug: 'a-draft',
    title: 'A Draft',
    status: 'draft',
    visibility: 'public',
    publishedAt: null,
    body: 'One.',
    featureImage: null,
    featureImageAlt: null,
    seoTitle: null,
    seoDescription: null,
    version: 1,
    updatedAt: START.toISOString(),
    path: '/a-draft',
    submittedAt: null,
    ...overrides,
  };
}

interface Sent {
  version: number;
  changes: Record<string, unknown>;
  options: SaveOptions;
}

/**
 * The desk's posts API as the server keeps it: a save over the stored version makes the next one,
 * a save over an older one is refused with the stored post. `answerNext` changes the next answer
 * (held, failed, or lost on the way back).
 */
function fakeServer(stored: PostJson | null) {
  const sent: Sent[] = [];
  const created: { kind: PostKind; changes: Record<string, unknown> }[] = [];
  let answers: ((apply: () => SaveResult) => Promise<SaveResult>)[] = [];
  const apply = (changes: Record<string, unknown>) => {
    if (!stored) throw new Error('nothing stored');
    stored = {
      ...stored,
      ...changes,
      slug: typeof changes.slug === 'string' ? changes.slug : stored.slug,
      version: stored.version + 1,
      updatedAt: new Date().toISOString(),
    } as PostJson;
    return stored;
  };
  const server: DraftServer = {
    async create(kind, changes) {
      created.push({ kind, changes });
      stored = postOf({ id: 8, kind, version: 0, title: '', body: '' });
      return { post: apply(changes) };
    },
    async save(_id, version, changes, options) {
      sent.push({ version, changes, options });
      const answer = (): SaveResult => {
        if (!stored) throw new Error('nothing stored');
        if (version !== stored.version) return { ok: false, theirs: stored };
        return { ok: true, post: apply(changes) };
      };
      const next = answers.shift();
      return next ? next(answer) : answer();
    },
  };
  return {
    server,
    sent,
    created,
    stored: () => stored,
    /** Another staff member's save, straight to the server. */
    savedByOther(changes: Record<string, unknown>) {
      return apply(changes);
    },
    /** The next save's answer, made by `how` from the server's own (`apply` stores it). */
    answerNext(how: (apply: () => SaveResult) => Promise<SaveResult>) {
      answers = [...answers, how];
    },
  };
}

function memoryStorage(): KeptStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

/** The page around the sync: a window, a document and a navigator the test controls. */
function browserPage() {
  const page = {
    window: new EventTarget(),
    document: Object.assign(new EventTarget(), {
      visibilityState: 'visible' as DocumentVisibilityState,
    }),
    navigator: { onLine: true },
  };
  return {
    environment: page,
    /** Closes the page as the browser does: answers whether the page asked to stay. */
    close() {
      const event = new Event('beforeunload', { cancelable: true });
      page.window.dispatchEvent(event);
      return event.defaultPrevented;
    },
    hide() {
      page.document.visibilityState = 'hidden';
      page.document.dispatchEvent(new Event('visibilitychange'));
    },
    online() {
      page.navigator.onLine = true;
      page.window.dispatchEvent(new Event('online'));
    },
  };
}

/** Something the server holds until the test releases it (a slow save, a slow create). */
function held() {
  let release = () => {};
  const promise = new Promise<void>((done) => (release = () => done()));
  return { promise, release };
}

const kept = (storage: ReturnType<typeof memoryStorage>, id = 7) => {
  const text = storage.items.get(keptKey(id));
  return text
    ? (JSON.parse(text) as { version: number; form: { body: string }; at: string })
    : null;
};

/** A sync for `post` as the page opens it, started on a page the test controls. */
function openPost(post: PostJson | null, kind: PostKind = 'article') {
  const server = fakeServer(post);
  const storage = memoryStorage();
  const page = browserPage();
  const onCreated = vi.fn<(post: PostJson) => void>();
  const onProblem = vi.fn<(message: string | null) => void>();
  const sync = createDraftSync({
    kind,
    form: post ? null : emptyForm(kind),
    server: server.server,
    storage,
  });
  if (post) sync.resume(post);
  stops.push(sync.start(page.environment, { onCreated, onProblem }));
  return { sync, server, storage, page, onCreated, onProblem };
}

const stops: (() => void)[] = [];
const type = (sync: DraftSync, words: string) => {
  const form = sync.getState().form;
  if (!form) throw new Error('no form');
  sync.edit({ body: form.body + words });
};

beforeEach(() => {
  vi.useFakeTimers({ now: START });
});

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.useRealTimers();
});

describe('a draft being written', () => {
  it('saves itself once the typing has paused for 2.5 s, with every word typed until then', async () => {
    const { sync, server, storage } = openPost(postOf());
    type(sync, ' Two.');
    await vi.advanceTimersByTimeAsync(2_000);
    type(sync, ' Three.');
    expect(sync.getState().save).toEqual({ state: 'dirty' });
    expect(kept(storage)).toMatchObject({ version: 1, form: { body: 'One. Two. Three.' } });

    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS - 1);
    expect(server.sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.sent).toHaveLength(1);
    expect(server.sent[0]).toMatchObject({ version: 1, changes: { body: 'One. Two. Three.' } });
    expect(server.sent[0]?.options).toEqual({});

    const { post, save } = sync.getState();
    expect(post?.version).toBe(2);
    expect(save).toEqual({ state: 'saved', at: new Date(START.getTime() + 4_500).toISOString() });
    expect(kept(storage)).toBeNull();
  });

  it('ignores a change that changes nothing (a selection, a blur): nothing to save', async () => {
    const { sync, server, storage } = openPost(postOf());
    sync.edit({ body: 'One.' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS * 2);
    expect(sync.getState().save.state).toBe('saved');
    expect(server.sent).toEqual([]);
    expect(kept(storage)).toBeNull();
  });

  it('keeps a live post’s edits in this browser until “Publish changes”, never saving them by itself', async () => {
    const { sync, server, storage } = openPost(postOf({ status: 'published' }));
    type(sync, ' Fixed.');
    expect(sync.getState().save).toEqual({ state: 'kept-here' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS * 4);
    expect(server.sent).toEqual([]);
    expect(kept(storage)?.form.body).toBe('One. Fixed.');

    await sync.save();
    expect(server.stored()?.body).toBe('One. Fixed.');
    expect(sync.getState().save.state).toBe('saved');
  });

  it('makes a save asked for while another is on its way wait for it, then sends what was typed since over the new version', async () => {
    const { sync, server } = openPost(postOf());
    const answer = held();
    server.answerNext(async (apply) => {
      await answer.promise;
      return apply();
    });
    type(sync, ' Two.');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(sync.getState().save).toEqual({ state: 'saving' });

    type(sync, ' Three.');
    expect(sync.getState().save).toEqual({ state: 'dirty' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    // Past the pause: the next save waits for the first rather than going out beside it.
    expect(sync.getState().save).toEqual({ state: 'saving' });
    expect(server.sent.map((save) => save.version)).toEqual([1]);

    answer.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.sent.map((save) => save.version)).toEqual([1, 2]);
    expect(server.sent[1]?.changes.body).toBe('One. Two. Three.');
    expect(sync.getState()).toMatchObject({ save: { state: 'saved' }, conflict: null });
    expect(server.stored()).toMatchObject({ body: 'One. Two. Three.', version: 3 });
  });

  it('shows a save the server refuses, keeps the work here, and clears the message as the next save starts', async () => {
    const { sync, server, storage, onProblem } = openPost(postOf());
    server.answerNext(async () => {
      throw new ApiError(400, 'invalid_request', 'The summary is too long.');
    });
    type(sync, ' Two.');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(sync.getState().save).toEqual({ state: 'error', message: 'The summary is too long.' });
    expect(onProblem).toHaveBeenLastCalledWith('The summary is too long.');
    expect(kept(storage)?.form.body).toBe('One. Two.');

    type(sync, ' Three.');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(onProblem).toHaveBeenLastCalledWith(null);
    expect(server.stored()?.body).toBe('One. Two. Three.');
  });
});

describe('without a connection', () => {
  const lost = async (): Promise<SaveResult> => {
    throw new TypeError('Failed to fetch');
  };

  it('keeps a draft in this browser while the server cannot be reached, and saves it once the browser is back online', async () => {
    const { sync, server, storage, page } = openPost(postOf());
    server.answerNext(lost);
    type(sync, ' In the tunnel.');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(sync.getState().save).toEqual({ state: 'offline' });
    expect(kept(storage)).toMatchObject({ version: 1, form: { body: 'One. In the tunnel.' } });
    expect(server.stored()?.version).toBe(1);

    // No saving again and again meanwhile: the browser says when it is back.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.sent).toHaveLength(1);

    page.online();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.sent).toHaveLength(2);
    expect(sync.getState().save.state).toBe('saved');
    expect(server.stored()?.body).toBe('One. In the tunnel.');
    expect(kept(storage)).toBeNull();
  });

  it('sends nothing as the page closes while the server cannot be reached, and asks before closing', async () => {
    const { sync, server, storage, page } = openPost(postOf());
    server.answerNext(lost);
    type(sync, ' In the tunnel.');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(sync.getState().save.state).toBe('offline');

    // navigator.onLine lags behind: the failed save is what the sync goes by.
    expect(page.close()).toBe(true);
    page.hide();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.sent).toHaveLength(1);
    expect(kept(storage)?.form.body).toBe('One. In the tunnel.');
  });

  it('takes a refused save whose post is exactly what was sent as saved (its answer was lost), not as a conflict', async () => {
    const { sync, server, page } = openPost(postOf());
    // The first save reaches the server, then its answer is lost on the way back.
    server.answerNext(async (apply) => {
      apply();
      throw new TypeError('Failed to fetch');
    });
    type(sync, ' Two.');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(sync.getState().save.state).toBe('offline');

    page.online();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.sent.map((save) => save.version)).toEqual([1, 1]);
    expect(sync.getState()).toMatchObject({ conflict: null, save: { state: 'saved' } });
    expect(sync.getState().post?.version).toBe(2);
    expect(server.stored()).toMatchObject({ body: 'One. Two.', version: 2 });
  });
});

describe('leaving the page', () => {
  it('sends a draft’s unsaved words with keepalive as the page closes, and asks before closing', async () => {
    const { sync, server, page } = openPost(postOf());
    type(sync, ' Last words.');
    expect(page.close()).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(server.sent).toEqual([
      expect.objectContaining({ version: 1, options: { keepalive: true } }),
    ]);
    expect(server.stored()?.body).toBe('One. Last words.');
  });

  it('sends a draft’s unsaved words with keepalive when the page is hidden', async () => {
    const { sync, server, page } = openPost(postOf());
    type(sync, ' Put aside.');
    page.hide();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.sent).toEqual([expect.objectContaining({ options: { keepalive: true } })]);
    expect(sync.getState().save.state).toBe('saved');
  });

  it('lets a page with nothing unsaved close without asking or sending', async () => {
    const { server, page } = openPost(postOf());
    expect(page.close()).toBe(false);
    page.hide();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(server.sent).toEqual([]);
  });

  it('sends nothing when the browser knows it is offline, and nothing of a live post (its edits wait for “Publish changes”)', async () => {
    const draft = openPost(postOf());
    type(draft.sync, ' Offline words.');
    draft.page.environment.navigator.onLine = false;
    expect(draft.page.close()).toBe(true);

    const live = openPost(postOf({ status: 'published' }));
    type(live.sync, ' A fix.');
    expect(live.page.close()).toBe(true);
    live.page.hide();

    await vi.advanceTimersByTimeAsync(0);
    expect(draft.server.sent).toEqual([]);
    expect(live.server.sent).toEqual([]);
    expect(kept(draft.storage)?.form.body).toBe('One. Offline words.');
    expect(kept(live.storage)?.form.body).toBe('One. A fix.');
  });

  it('stops saving by itself once stopped (the page left for another screen)', async () => {
    const { sync, server, storage } = openPost(postOf());
    type(sync, ' Two.');
    for (const stop of stops.splice(0)) stop();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS * 2);
    expect(server.sent).toEqual([]);
    expect(kept(storage)?.form.body).toBe('One. Two.');
  });
});

describe('another staff member’s save', () => {
  it('shows both versions when a save crosses theirs, saves nothing by itself meanwhile, and “Keep mine” saves over theirs', async () => {
    const { sync, server } = openPost(postOf());
    const theirs = server.savedByOther({ body: 'One. Their sentence.' });
    type(sync, ' My sentence.');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(sync.getState().conflict).toEqual(theirs);
    expect(sync.getState().save).toEqual({ state: 'dirty' });
    expect(sync.getState().form?.body).toBe('One. My sentence.');

    type(sync, ' More of mine.');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS * 4);
    expect(server.sent).toHaveLength(1);

    const saved = await sync.keepMine();
    expect(saved).toMatchObject({ version: 3, body: 'One. My sentence. More of mine.' });
    expect(server.sent.map((save) => save.version)).toEqual([1, 2]);
    expect(sync.getState()).toMatchObject({ conflict: null, save: { state: 'saved' } });
  });

  it('puts their version in the editor and forgets ours when the writer takes theirs', async () => {
    const { sync, server, storage } = openPost(postOf());
    const theirs = server.savedByOther({ body: 'One. Their sentence.' });
    type(sync, ' My sentence.');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    const before = sync.getState().replaced;

    expect(sync.takeTheirs()).toBe(true);
    expect(sync.getState()).toMatchObject({
      post: theirs,
      form: formOf(theirs),
      conflict: null,
      save: { state: 'saved', at: theirs.updatedAt },
      replaced: before + 1,
    });
    expect(kept(storage)).toBeNull();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS * 2);
    expect(server.sent).toHaveLength(1);
    expect(sync.takeTheirs()).toBe(false);
  });
});

describe('opening a post again', () => {
  /** A sync opening `onServer` in a browser that kept `form`, typed over version 1, at `at`. */
  function reopen(onServer: PostJson, form: PostForm, at = START.toISOString()) {
    const storage = memoryStorage();
    storage.setItem(keptKey(onServer.id), JSON.stringify({ version: 1, form, at }));
    const server = fakeServer(onServer);
    const sync = createDraftSync({ kind: 'article', form: null, server: server.server, storage });
    return { sync, server, storage };
  }

  it('brings back work kept in this browser and saves it', async () => {
    const post = postOf();
    const at = '2026-11-27T09:00:00.000Z';
    const form = { ...formOf(post), body: 'One. Typed before the tab closed.' };
    const { sync, server, storage } = reopen(post, form, at);
    stops.push(sync.start(browserPage().environment));

    expect(sync.resume(post)).toEqual({ keptAt: at });
    expect(sync.getState()).toMatchObject({ form, save: { state: 'dirty' }, conflict: null });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(server.stored()?.body).toBe('One. Typed before the tab closed.');
    expect(storage.items.size).toBe(0);
  });

  it('takes work kept in this browser that a save sent as the page closed gave the server as saved, not as a conflict', () => {
    const post = postOf({ version: 2, body: 'One. Two.' });
    // The same words, its fields listed in another order (the editor added the reading time).
    const { fields, ...rest } = formOf(post);
    const form = { ...rest, fields: { readingMinutes: 1, ...fields } };
    const stored = { ...post, readingMinutes: 1 } as PostJson;
    const { sync, storage } = reopen(stored, form);

    expect(sync.resume(stored)).toBeNull();
    expect(sync.getState()).toMatchObject({ conflict: null, save: { state: 'saved' } });
    expect(storage.items.size).toBe(0);
  });

  it('shows work kept over a version someone else has saved since beside theirs', () => {
    const post = postOf({ version: 2, body: 'One. Theirs.' });
    const form = { ...formOf(post), body: 'One. Mine.' };
    const { sync } = reopen(post, form);

    expect(sync.resume(post)).toBeNull();
    expect(sync.getState()).toMatchObject({ form, conflict: post });
  });
});

describe('a new post', () => {
  it('keeps its words in this browser before its first save, asks before the page closes, and gives them back to the next new post', () => {
    const { sync, storage, page } = openPost(null);
    sync.edit({ title: 'Left at Once' });
    type(sync, 'A sentence typed before leaving.');
    expect(JSON.parse(storage.items.get(keptNewKey('article')) ?? 'null')).toMatchObject({
      form: { title: 'Left at Once', body: 'A sentence typed before leaving.' },
    });
    expect(page.close()).toBe(true);

    const again = createDraftSync({
      kind: 'article',
      form: emptyForm('article'),
      server: fakeServer(null).server,
      storage,
    });
    expect(again.resumeNew()).toEqual({ keptAt: START.toISOString() });
    expect(again.getState()).toMatchObject({
      form: { title: 'Left at Once', body: 'A sentence typed before leaving.' },
      save: { state: 'dirty' },
      replaced: 1,
    });
    // Another kind's new post starts empty.
    const letter = createDraftSync({
      kind: 'newsletter',
      form: emptyForm('newsletter'),
      server: fakeServer(null).server,
      storage,
    });
    expect(letter.resumeNew()).toBeNull();
    // Discarded, they are gone.
    again.discardNew(emptyForm('article'));
    expect(again.getState().form).toEqual(emptyForm('article'));
    expect(storage.items.has(keptNewKey('article'))).toBe(false);
  });

  it('drops the words it kept once its first save created it', async () => {
    const { sync, server, storage } = openPost(null);
    sync.edit({ title: 'Saved Soon' });
    expect(storage.items.has(keptNewKey('article'))).toBe(true);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(server.created).toHaveLength(1);
    expect(storage.items.size).toBe(0);
  });

  it('is not saved while it has no title', async () => {
    const { sync, server } = openPost(null);
    type(sync, 'Words first.');
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(await sync.save()).toBeNull();
    expect(server.created).toEqual([]);
  });

  it('is created by its first save, and what was typed while it was created is kept and saved next', async () => {
    const { sync, server, storage, onCreated } = openPost(null, 'newsletter');
    const created = held();
    const create = server.server.create;
    server.server.create = async (kind, changes) => {
      await created.promise;
      return create(kind, changes);
    };
    sync.edit({ title: 'The December Letter' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    type(sync, 'Typed meanwhile.');
    created.release();
    await vi.advanceTimersByTimeAsync(0);

    expect(server.created).toEqual([
      expect.objectContaining({
        kind: 'newsletter',
        changes: expect.objectContaining({ body: '' }),
      }),
    ]);
    expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 8, version: 1 }));
    expect(sync.getState().save).toEqual({ state: 'dirty' });
    expect(kept(storage, 8)?.form.body).toBe('Typed meanwhile.');

    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(server.sent).toEqual([
      expect.objectContaining({
        version: 1,
        changes: expect.objectContaining({ body: 'Typed meanwhile.' }),
      }),
    ]);
    expect(sync.getState().save.state).toBe('saved');
  });
});
