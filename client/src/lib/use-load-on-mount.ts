import { useEffect } from 'react';

/**
 * Starts `load` when the component mounts and aborts it when the component goes: `onLoaded` gets
 * the answer, `onFailed` the error of a load that was not aborted.
 */
export function useLoadOnMount<T>(
  load: (signal: AbortSignal) => Promise<T>,
  onLoaded: (answer: T) => void,
  onFailed: (error: unknown) => void,
): void {
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(onLoaded, (error: unknown) => {
      if (!controller.signal.aborted) onFailed(error);
    });
    return () => controller.abort();
    // Once, when the component mounts: the functions are new ones on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
