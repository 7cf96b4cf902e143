import { useEffect, type RefObject } from 'react';

/**
 * Closes an open menu or disclosure as a reader expects: Escape closes it and gives the focus back
 * to its button; a press anywhere outside `within` (the menu and its button) closes it.
 */
export function useDismiss(
  open: boolean,
  close: () => void,
  {
    within,
    button,
  }: { within: RefObject<HTMLElement | null>; button: RefObject<HTMLElement | null> },
) {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      button.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!within.current?.contains(event.target as Node)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, close, within, button]);
}
