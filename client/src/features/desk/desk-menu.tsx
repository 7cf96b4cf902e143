import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useLocation } from '../../lib/router';

/**
 * The desk's navigation: its screens in one bar on a wide screen; on a phone folded behind one
 * Menu button (desk.css), a disclosure that says whether it is open (`aria-expanded`). Escape
 * closes it and gives the focus back to the button; so does a click outside it, and following
 * one of its links.
 */
export function DeskMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const nav = useRef<HTMLElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  // A screen opened from the menu closes it.
  const { pathname } = useLocation();
  const [openedAt, setOpenedAt] = useState(pathname);
  if (openedAt !== pathname) {
    setOpenedAt(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!nav.current?.contains(event.target as Node)) setOpen(false);
    };
    // The screen already open, chosen again: the address does not change, the menu still closes.
    const onClick = (event: MouseEvent) => {
      const target = event.target as Element;
      if (nav.current?.contains(target) && target.closest('a')) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('click', onClick);
    };
  }, [open]);

  return (
    <nav ref={nav} aria-label="Desk" className="desk__nav" data-open={open ? '' : undefined}>
      <button
        ref={button}
        type="button"
        className="desk__menu-button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((was) => !was)}
      >
        Menu
      </button>
      <div id={menuId} className="desk__menu">
        {children}
      </div>
    </nav>
  );
}
