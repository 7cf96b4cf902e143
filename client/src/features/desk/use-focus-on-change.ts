import { useEffect, useRef } from 'react';

/**
 * When `shown` changes (a confirmation or a form opens in a row, or closes), the focus goes to the
 * first of `selector` in the returned ref's box, not to the page's top. Not on the first render.
 */
export function useFocusOnChange<T>(shown: T, selector: string) {
  const box = useRef<HTMLDivElement>(null);
  const last = useRef(shown);
  useEffect(() => {
    if (last.current === shown) return;
    last.current = shown;
    box.current?.querySelector<HTMLElement>(selector)?.focus();
  }, [shown, selector]);
  return box;
}
