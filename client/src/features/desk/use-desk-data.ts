import { useCallback, useEffect, useState } from 'react';
import { describeFailure, type ApiError } from '../../lib/api-client';
import { useRequest } from '../../lib/use-request';

export type Loaded<T> =
  { state: 'loading' } | { state: 'ready'; data: T } | { state: 'error'; error: ApiError | Error };

/**
 * Loads what a desk screen shows, again whenever `key` changes or `reload()` is called; a load
 * overtaken by a newer one is aborted and never shown.
 */
export function useDeskData<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
): [Loaded<T>, () => void] {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading' });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => setResult({ state: 'ready', data }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setResult({
          state: 'error',
          error: error instanceof Error ? error : new Error(String(error)),
        });
      },
    );
    return () => controller.abort();
    // `load` is a new function on every render; `key` says when what it loads changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, generation]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return [result, reload];
}

/**
 * What a field of a desk form offers, loaded once as it opens (`useDeskData`): null until it is
 * there, and what went wrong if it could not be loaded.
 */
export function useLoadedOnce<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
): { data: T | null; problem: string | null } {
  const [loaded] = useDeskData(key, load);
  return {
    data: loaded.state === 'ready' ? loaded.data : null,
    problem: loaded.state === 'error' ? describeError(loaded.error) : null,
  };
}

const UNREACHABLE = 'The desk could not reach the server. Check your connection and try again.';

/** A message for the staff member, whatever a request threw. */
export const describeError = (error: unknown): string => describeFailure(error, UNREACHABLE);

/** A request a staff member starts (a form, a button): `useRequest`, its problems as the desk's. */
export const useDeskRequest = () => useRequest(UNREACHABLE);
