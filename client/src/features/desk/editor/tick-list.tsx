import type { ReactNode } from 'react';

/**
 * A list of the site's things to tick (its staff as authors, its tiers as readers), loaded from
 * the server: why it could not be loaded, a line while it loads, then a box for each.
 */
export function TickList<T extends { slug: string }>({
  items,
  problem,
  loading,
  noteClass,
  ticked,
  fixed,
  onTick,
  labelOf,
}: {
  /** Null while loading, or when loading failed. */
  items: readonly T[] | null;
  problem: string | null;
  loading: string;
  /** The class of the list's own small words. */
  noteClass: string;
  ticked: (item: T) => boolean;
  /** An item whose box cannot be changed now. */
  fixed?: (item: T) => boolean;
  onTick: (item: T, on: boolean) => void;
  labelOf: (item: T) => ReactNode;
}) {
  if (problem) return <p role="alert">{problem}</p>;
  if (!items) return <p className={noteClass}>{loading}</p>;
  return (
    <ul role="list">
      {items.map((item) => (
        <li key={item.slug}>
          <label className="desk-check">
            <input
              type="checkbox"
              checked={ticked(item)}
              disabled={fixed?.(item) ?? false}
              onChange={(event) => onTick(item, event.target.checked)}
            />{' '}
            {labelOf(item)}
          </label>
        </li>
      ))}
    </ul>
  );
}
