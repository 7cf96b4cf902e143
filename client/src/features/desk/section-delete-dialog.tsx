import { useId, useState, type KeyboardEvent } from 'react';
import type { SectionDelete } from '../../../../contract/sections-api';
import type { SiteSection } from '../../../../contract/sections';
import { postsWord } from './sections-parts';

const TO_TRASH = 'trash';

/**
 * Deleting a section that lists posts: where they go, asked before anything changes. Another
 * section listing the same kind (the first offered), or the Trash, where they can be restored for
 * 30 days. The choice has the focus when it opens; Escape cancels.
 */
export function DeleteWithPosts({
  section,
  posts,
  others,
  onConfirm,
  onCancel,
}: {
  section: SiteSection;
  posts: number;
  others: SiteSection[];
  onConfirm: (choice: SectionDelete, where: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [where, setWhere] = useState(others[0]?.slug ?? TO_TRASH);
  const them = posts === 1 ? 'it' : 'them';
  const target = others.find((other) => other.slug === where);

  function cancelOnEscape(event: KeyboardEvent) {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onCancel();
  }

  return (
    <div
      className="desk__notice desk-sections__delete"
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      onKeyDown={cancelOnEscape}
    >
      <p id={`${id}-title`}>
        Delete the section {section.name}? It lists {postsWord(posts)}, drafts included: say where{' '}
        {posts === 1 ? 'it goes' : 'they go'}.
      </p>
      <label className="desk-field">
        <span>Where {posts === 1 ? 'its post goes' : `its ${posts} posts go`}</span>
        <select autoFocus value={where} onChange={(event) => setWhere(event.target.value)}>
          {others.map((other) => (
            <option key={other.id} value={other.slug}>
              Move {them} to {other.name}
            </option>
          ))}
          <option value={TO_TRASH}>Move {them} to the Trash</option>
        </select>
      </label>
      <p className="desk__small">
        {target
          ? `${section.name}’s address will lead to ${target.name}.`
          : `${posts === 1 ? 'It stays' : 'They stay'} in the Trash for 30 days, to be restored or gone for good.`}
      </p>
      <p className="button-row">
        <button
          type="button"
          className="button button--accent"
          onClick={() =>
            onConfirm(
              target ? { moveTo: target.slug } : { posts: 'trash' },
              target
                ? `${postsWord(posts)} moved to ${target.name}`
                : `${postsWord(posts)} in the Trash`,
            )
          }
        >
          Delete {section.name}
        </button>
        <button type="button" className="button button--outline" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </div>
  );
}
