import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
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

const SessionContext = createContext<SessionContextValue | null>(null);

/**
 * Starts (or resumes) the visitor's session on load, as the seed signed in anonymously. The site
 * stays readable meanwhile; a network failure is retried with backoff until the server answers.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(null);
  const [status, setStatus] = useState<SessionStatus>('connecting');

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;

    async function attempt(n: number): Promise<void> {
      try {
        const result = await startSession(controller.signal);
        setUser(result.user);
        setStatus('ready');
      } catch (error) {
        if (controller.signal.aborted) return;
        const delay = retryDelayMs(error, n);
        if (delay === null) {
          setStatus('failed');
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
  }, []);

  const refresh = useCallback(async () => {
    try {
      const result = await fetchMe();
      setUser(result.user);
      return result.user;
    } catch {
      // The session ended (or the network is away): start over as the server sees it.
      const result = await startSession().catch(() => null);
      if (result) setUser(result.user);
      return result?.user ?? null;
    }
  }, []);

  const value = useMemo(() => ({ status, user, refresh, setUser }), [status, user, refresh]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
