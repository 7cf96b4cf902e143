import { useSyncExternalStore } from 'react';

/**
 * A value the browser holds across screens (the navigation, the settings): the one the page came
 * with, replaced by each newer one a GET /api/site-data answer brings, so what reads it follows a
 * change made in the desk at the reader's next move. While the page hydrates, the first one kept is
 * drawn, so the first render says what the server's HTML says.
 */
export function keptValue<T>(onChange?: (next: T, previous: T) => void) {
  let first: T | null = null;
  let current: T | null = null;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    /** Keeps `value` as the one to draw, and redraws what reads it when it changed. */
    keep(value: T) {
      if (current !== null && JSON.stringify(current) === JSON.stringify(value)) return;
      if (current !== null) onChange?.(value, current);
      first ??= value;
      current = value;
      for (const listener of listeners) listener();
    },
    /** The value kept, or null before any was. */
    useKept: (): T | null =>
      useSyncExternalStore(
        subscribe,
        () => current,
        () => first,
      ),
  };
}
