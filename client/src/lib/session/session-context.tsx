import {
  createContext,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { fetchMe, retryDelayMs, startSession } from './start-session';
import type { User } from '../../../../contract/api';

export type SessionStatus = 'connecting' | 'ready' | 'failed';

export interface SessionContextValue {
  status: SessionStatus;
  /** Null until the server has answered. */
  user: User | null;
  /** Reads the user again (after a payment, a sign-in). */
  refresh(): Promise<User | null>;
  /** Replaces the user with one the server just returned. */
  setUser(user: User): void;
}

interface SessionSnapshot {
  status: SessionStatus;
  user: User | null;
}

/** What the server drew every page with, and what the browser hydrates with. */
const BEFORE_SESSION: SessionSnapshot = { status: 'connecting', user: null };

interface SessionStore extends Pick<SessionContextValue, 'refresh' | 'setUser'> {
  subscribe(listener: () => void): () => void;
  read(): SessionSnapshot;
  update(next: Partial<SessionSnapshot>): void;
}

/**
 * The session lives in a store outside React, so that it arriving re-renders only the components
 * that read it. Were it a context value, its change would reach every part of the page still
 * waiting for its code (a Suspense boundary not yet hydrated), and React would throw that part's
 * server HTML away and draw it again (tests/e2e/hydration.spec.ts).
 */
function createSessionStore(): SessionStore {
  let snapshot = BEFORE_SESSION;
  const listeners = new Set<() => void>();
  const store: SessionStore = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read: () => snapshot,
    update(next) {
      snapshot = { ...snapshot, ...next };
      for (const listener of listeners) listener();
    },
    setUser: (user) => store.update({ user }),
    async refresh() {
      try {
        const result = await fetchMe();
        store.setUser(result.user);
        return result.user;
      } catch {
        // The session ended (or the network is away): start over as the server sees it.
        const result = await startSession().catch(() => null);
        if (result) store.setUser(result.user);
        return result?.user ?? null;
      }
    },
  };
  return store;
}

const SessionContext = createContext<SessionStore | null>(null);

/**
 * Starts (or resumes) the visitor's session on load, as the seed signed in anonymously. The site
 * stays readable meanwhile; a network failure is retried with backoff until the server answers.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [store] = useState(createSessionStore);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;

    async function attempt(n: number): Promise<void> {
      try {
        const result = await startSession(controller.signal);
        store.update({ user: result.user, status: 'ready' });
      } catch (error) {
        if (controller.signal.aborted) return;
        const delay = retryDelayMs(error, n);
        if (delay === null) {
          store.update({ status: 'failed' });
          return;
        }
        timer = setTimeout(() => void attempt(n + 1), delay);
      }
    }

    void attempt(0);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [store]);

  return <SessionContext.Provider value={store}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const store = useContext(SessionContext);
  if (!store) throw new Error('useSession must be used inside <SessionProvider>');
  const { status, user } = useSyncExternalStore(store.subscribe, store.read, () => BEFORE_SESSION);
  return { status, user, refresh: store.refresh, setUser: store.setUser };
}
