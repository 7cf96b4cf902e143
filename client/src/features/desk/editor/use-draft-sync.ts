import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { PostKind } from '../../../../../contract/posts';
import {
  createDraftSync,
  type DraftEvents,
  type DraftState,
  type DraftSync,
  type KeptStorage,
} from './draft-sync';
import { createPost, fetchPost, savePost } from './post-api';
import { emptyForm, formatLocal } from './post-form';

/** localStorage, reached on each call: a blocked one throws, and the sync takes that as empty. */
const browserStorage: KeptStorage = {
  getItem: (key) => localStorage.getItem(key),
  setItem: (key, value) => localStorage.setItem(key, value),
  removeItem: (key) => localStorage.removeItem(key),
};

type PageEvents = Required<DraftEvents> & {
  /** Unsaved work kept in this browser came back. */
  onNotice: (message: string) => void;
  /** A new post's words kept in this browser came back (the page may offer to start empty). */
  onResumedNew: () => void;
};

/**
 * The post at /desk/posts/:id (or a new one of `newKind` when `id` is null), kept in step with the
 * server by draft-sync.ts for as long as the page is open: its state to draw, the sync to act on,
 * and why the post could not be loaded.
 */
export function useDraftSync(
  id: number | null,
  newKind: PostKind,
  events: PageEvents,
): { state: DraftState; sync: DraftSync; loadError: string | null } {
  // The sync lives as long as the page: it calls the latest handlers through this.
  const latest = useRef(events);
  useLayoutEffect(() => {
    latest.current = events;
  });
  const [sync] = useState(() =>
    createDraftSync({
      kind: newKind,
      form: id === null ? emptyForm(newKind) : null,
      server: { create: createPost, save: savePost },
      storage: browserStorage,
    }),
  );
  const state = useSyncExternalStore(sync.subscribe, sync.getState);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(
    () =>
      sync.start(
        { window, document, navigator },
        {
          onCreated: (post) => latest.current.onCreated(post),
          onProblem: (message) => latest.current.onProblem(message),
        },
      ),
    [sync],
  );

  useEffect(() => {
    if (id !== null) return;
    // A new post left before its first save: its words, offered back.
    const kept = sync.resumeNew();
    if (kept) {
      latest.current.onNotice(
        `Your unsaved post from ${formatLocal(kept.keptAt)} was kept in this browser: it is back.`,
      );
      latest.current.onResumedNew();
    }
  }, [id, sync]);

  useEffect(() => {
    if (id === null) return;
    // The post just created here, now at its own address: it is in the form already, with what
    // was typed since.
    if (sync.getState().post?.id === id) return;
    let cancelled = false;
    fetchPost(id)
      .then(({ post }) => {
        if (cancelled) return;
        const kept = sync.resume(post);
        if (kept) {
          latest.current.onNotice(
            `Your unsaved changes from ${formatLocal(kept.keptAt)} were kept in this browser: they are back.`,
          );
        }
      })
      .catch((error: unknown) => {
        if (!cancelled) setLoadError(error instanceof Error ? error.message : 'Could not load.');
      });
    return () => {
      cancelled = true;
    };
  }, [id, sync]);

  return { state, sync, loadError };
}
