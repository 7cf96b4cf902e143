import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { kindSection, POST_KINDS, type PostKind } from '../../../../contract/posts';
import type { SectionLists } from '../../../../contract/section-rules';
import { Link } from '../../lib/router';
import { KIND_LABELS } from './editor/post-form';
import { fetchSections } from './sections-api';

/** What each kind is, in the chooser's words; `section`: the name of the section listing it. */
const KIND_HINTS: Record<PostKind, (section: string) => string> = {
  article: () => 'A story for a section, with its own page.',
  campaign: (section) => `A fundraiser on ${section} that links to its own site.`,
  boycott: (section) => `A boycott on ${section}: why, what instead, what happened.`,
  resources: (section) => `A group of free resources on ${section}.`,
  page: () => 'A page of its own, or the text of one of the site’s screens.',
  newsletter: () => 'An issue mailed to subscribers and kept in the archive.',
};

/** What the section a post of this kind is listed in lists; null: none needed (pages, issues). */
const listsOf = (kind: PostKind): SectionLists | null =>
  kind === 'article' ? 'articles' : (kindSection(kind) ?? null);

/**
 * The name of the (first) section listing each kind, once the sections are read; null until
 * then, or when they cannot be read (every kind is offered then).
 */
function useSectionNames(): ReadonlyMap<SectionLists, string> | null {
  const [names, setNames] = useState<ReadonlyMap<SectionLists, string> | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchSections(controller.signal).then(
      ({ sections }) => {
        const found = new Map<SectionLists, string>();
        for (const section of sections) {
          if (!found.has(section.lists)) found.set(section.lists, section.name);
        }
        setNames(found);
      },
      () => setNames(null),
    );
    return () => controller.abort();
  }, []);
  return names;
}

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
  const sections = useSectionNames();
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

  // A kind no section lists is not offered (its posts would have no list page): an owner makes
  // its section first, in Sections.
  const homeless = (choice: PostKind) => {
    const lists = listsOf(choice);
    return sections !== null && lists !== null && !sections.has(lists);
  };
  const offered = POST_KINDS.filter((choice) => !homeless(choice));
  const missing = POST_KINDS.filter(homeless);
  const sectionName = (choice: PostKind) => {
    const lists = listsOf(choice);
    return (lists && sections?.get(lists)) ?? 'its section';
  };

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
        {offered.map((choice) => (
          <li key={choice}>
            <Link to={newPostPath(choice)}>
              <strong>{KIND_LABELS[choice]}</strong>
              <span>{KIND_HINTS[choice](sectionName(choice))}</span>
            </Link>
          </li>
        ))}
        {missing.length > 0 && (
          <li className="new-post__missing">
            <Link to="/desk/sections">
              <strong>Make a section first</strong>
              <span>
                No section lists{' '}
                {missing.map((choice) => KIND_LABELS[choice].toLowerCase()).join(' or ')} posts: an
                owner adds one in Sections.
              </span>
            </Link>
          </li>
        )}
      </ul>
    </div>
  );
}
