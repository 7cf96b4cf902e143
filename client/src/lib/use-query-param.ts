import { useState, useSyncExternalStore } from 'react';

const neverChanges = () => () => {};

/**
 * A query parameter of the address the page was loaded with (`?checkout_session_id=…` on the way
 * back from Stripe), kept once seen even after the address is cleaned. Null while prerendering
 * and during hydration, so the browser's first render matches the prerendered HTML; the value
 * arrives on the render right after.
 */
export function useQueryParamOnce(name: string): string | null {
  const current = useSyncExternalStore(
    neverChanges,
    () => new URLSearchParams(window.location.search).get(name),
    () => null,
  );
  const [kept, setKept] = useState<string | null>(null);
  // Remembered across renders (React's pattern for state derived from an earlier render).
  if (current !== null && kept === null) setKept(current);
  return kept ?? current;
}
