import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useDismiss } from '../../lib/use-dismiss';
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

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, { within: nav, button });
  // The screen already open, chosen again: the address does not change, the menu still closes.
  useEffect(() => {
    if (!open) return;
    const onClick = (event: MouseEvent) => {
      const target = event.target as Element;
      if (nav.current?.contains(target) && target.closest('a')) setOpen(false);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
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
