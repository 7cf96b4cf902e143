import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { POST_KINDS, type PostKind } from '../../../../contract/posts';
import { Link } from '../../lib/router';
import { KIND_LABELS } from './editor/post-form';

/** What each kind is, in the chooser's words. */
const KIND_HINTS: Record<PostKind, string> = {
  article: 'A story for a section, with its own page.',
  campaign: 'A fundraiser on Direct Action that links to its own site.',
  boycott: 'A boycott on Collective Action: why, what instead, what happened.',
  resources: 'A group of free resources on Empowerment.',
  page: 'A page of its own, or the text of one of the site’s screens.',
  newsletter: 'An issue mailed to subscribers and kept in the archive.',
};

/** The editor of a new post of this kind (an article unless the address says otherwise). */
const newPostPath = (kind: PostKind) =>
  kind === 'article' ? '/desk/posts/new' : `/desk/posts/new?kind=${kind}`;

/**
 * The posts list's "New": with the list filtered to one kind, a post of that kind at once;
 * otherwise a menu of every kind (a button that shows a list of links: Tab and Enter reach each,
 * Escape closes it and gives the focus back to the button).
 */
export function NewPostChooser({ kind }: { kind: PostKind | '' }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  // A click elsewhere closes it.
  useEffect(() => {
    if (!open) return;
    const close = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [open]);

  if (kind) {
    return (
      <Link className="button button--accent" to={newPostPath(kind)}>
        New {KIND_LABELS[kind].toLowerCase()}
      </Link>
    );
  }

  function closeOnEscape(event: KeyboardEvent) {
    if (event.key !== 'Escape' || !open) return;
    event.preventDefault();
    setOpen(false);
    toggle.current?.focus();
  }

  return (
    <div className="new-post" ref={root} onKeyDown={closeOnEscape}>
      <button
        ref={toggle}
        type="button"
        className="button button--accent"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
      >
        New post <span aria-hidden="true">▾</span>
      </button>
      <ul className="new-post__kinds" id={menuId} hidden={!open} aria-label="Kind of post">
        {POST_KINDS.map((choice) => (
          <li key={choice}>
            <Link to={newPostPath(choice)}>
              <strong>{KIND_LABELS[choice]}</strong>
              <span>{KIND_HINTS[choice]}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
