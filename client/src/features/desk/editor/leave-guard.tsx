import { useEffect, useId, useState } from 'react';
import { EditorDialog } from './editor-dialog';

/**
 * A link of the app followed while the post has unsaved work (the desk's menu, "← Posts"): held,
 * and answered as where it led, for the page to ask first. Links in the body, new tabs and other
 * sites go their way. A leaving tab is the sync's (draft-sync.ts: the browser asks).
 */
export function useLeaveGuard(unsaved: boolean): {
  leavingTo: string | null;
  stay: () => void;
} {
  const [leavingTo, setLeavingTo] = useState<string | null>(null);
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
      setLeavingTo(`${to.pathname}${to.search}${to.hash}`);
    };
    document.addEventListener('click', hold, true);
    return () => document.removeEventListener('click', hold, true);
  }, [unsaved]);
  return { leavingTo, stay: () => setLeavingTo(null) };
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
