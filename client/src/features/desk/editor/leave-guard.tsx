import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from '../../../lib/router';
import { EditorDialog } from './editor-dialog';

/** The browser's Navigation API, where it has one. */
const navigationApi = (): Navigation | null =>
  (window as { navigation?: Navigation }).navigation ?? null;

/** Where a held leaving was going: a link's address, or an entry of the history (Back, Forward). */
type Held = { to: string; key: string | null };

/**
 * Leaving the page while the post has unsaved work, held for the page to ask first: a link of the
 * app (the desk's menu, "← Posts"), and the browser's Back and Forward, which the Navigation API
 * lets a page stop before they happen (Chromium's, and where other browsers have it): the
 * address stays the editor's, and the history is untouched until the writer leaves. Links in the
 * body, new tabs and other sites go their way. A leaving tab is the sync's (draft-sync.ts: the
 * browser asks), as is Back where the API is missing: the words stay in this browser.
 */
export function useLeaveGuard(unsaved: boolean): {
  leavingTo: string | null;
  stay: () => void;
  /** Goes where the held leaving was going. */
  leave: () => void;
} {
  const navigate = useNavigate();
  const [held, setHeld] = useState<Held | null>(null);
  /** A traversal the writer chose to make: let through once. */
  const letThrough = useRef(false);
  useEffect(() => {
    if (!unsaved) return;
    const hold = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || link.hasAttribute('download')) return;
      if ((link.target && link.target !== '_self') || link.isContentEditable) return;
      const to = new URL(link.href);
      const here = window.location;
      if (to.origin !== here.origin) return;
      if (to.pathname === here.pathname && to.search === here.search) return;
      // Before react-router's own handler (on the app's root, below the document) sees it.
      event.preventDefault();
      event.stopPropagation();
      setHeld({ to: `${to.pathname}${to.search}${to.hash}`, key: null });
    };
    document.addEventListener('click', hold, true);
    // Back and Forward within the app: stopped before the address changes (a traversal to
    // another document is the browser's to ask about, through beforeunload).
    const history = navigationApi();
    const holdTraversal = (event: NavigateEvent) => {
      if (event.navigationType !== 'traverse' || !event.destination.sameDocument) return;
      if (letThrough.current) {
        letThrough.current = false;
        return;
      }
      if (!event.cancelable) return;
      event.preventDefault();
      const to = new URL(event.destination.url);
      setHeld({ to: `${to.pathname}${to.search}${to.hash}`, key: event.destination.key });
    };
    history?.addEventListener('navigate', holdTraversal);
    return () => {
      document.removeEventListener('click', hold, true);
      history?.removeEventListener('navigate', holdTraversal);
    };
  }, [unsaved]);
  return {
    leavingTo: held?.to ?? null,
    stay: () => setHeld(null),
    leave: () => {
      setHeld(null);
      if (!held) return;
      const history = navigationApi();
      if (held.key === null || !history) return navigate(held.to);
      letThrough.current = true;
      history.traverseTo(held.key).finished?.catch(() => {
        // An entry gone since (the history moved on): its address instead.
        letThrough.current = false;
        navigate(held.to);
      });
    },
  };
}

/**
 * Leaving with unsaved work: save it and go (a draft), or go and find it kept in this browser
 * when the post is opened again, or stay.
 */
export function LeaveDialog({
  title,
  canSave,
  onSaveAndLeave,
  onLeave,
  onStay,
}: {
  title: string;
  /** A draft with a title saves; a live post's changes wait for "Publish changes". */
  canSave: boolean;
  onSaveAndLeave: () => void;
  onLeave: () => void;
  onStay: () => void;
}) {
  const titleId = useId();
  return (
    <EditorDialog labelledBy={titleId} onClose={onStay}>
      <div className="editor-dialog__form">
        <h2 id={titleId}>Leave with unsaved changes?</h2>
        <p>
          {title.trim() ? `“${title.trim()}”` : 'This post'} has changes that are not saved yet. If
          you leave without saving, they stay in this browser and come back when you open it again.
        </p>
        <p className="button-row">
          {canSave && (
            <button type="button" className="button button--accent" onClick={onSaveAndLeave}>
              Save and leave
            </button>
          )}
          <button type="button" className="button button--outline" onClick={onLeave}>
            Leave without saving
          </button>
          <button type="button" className="button button--outline" onClick={onStay} data-autofocus>
            Stay
          </button>
        </p>
      </div>
    </EditorDialog>
  );
}
