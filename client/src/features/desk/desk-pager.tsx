/**
 * Previous and next page buttons under a desk list read by cursor: `cursors` is the trail of pages
 * seen (the first is `null`), `next` the cursor of the page after this one, if any.
 */
export function DeskPager({
  cursors,
  next,
  onCursors,
  labels = ['Previous page', 'Next page'],
}: {
  cursors: (string | null)[];
  next: string | null | undefined;
  onCursors: (cursors: (string | null)[]) => void;
  /** The two buttons' words (a log reads newer and older). */
  labels?: readonly [string, string];
}) {
  return (
    <p className="button-row desk-pager">
      <button
        type="button"
        className="button button--outline"
        disabled={cursors.length === 1}
        onClick={() => onCursors(cursors.slice(0, -1))}
      >
        {labels[0]}
      </button>
      <button
        type="button"
        className="button button--outline"
        disabled={!next}
        onClick={() => next && onCursors([...cursors, next])}
      >
        {labels[1]}
      </button>
    </p>
  );
}
