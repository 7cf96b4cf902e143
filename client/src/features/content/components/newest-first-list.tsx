import type { ReactNode } from 'react';
import { compareNewestFirst, type Dated } from '../../../../../contract/newest-first';

/**
 * The seed's list layout: the newest item as a large card, the rest in a grid, newest first (by
 * date, then id: compareNewestFirst); the section's own text when there is nothing yet.
 */
export function NewestFirstList<Item extends Dated>({
  items,
  emptyText,
  renderItem,
}: {
  items: readonly Item[];
  emptyText: string;
  renderItem: (item: Item, featured: boolean) => ReactNode;
}) {
  const [newest, ...older] = [...items].sort(compareNewestFirst);
  if (!newest) return <p className="empty-state">{emptyText}</p>;
  return (
    <>
      <div className="featured-item">{renderItem(newest, true)}</div>
      {older.length > 0 && (
        <ul className="card-grid" role="list">
          {older.map((item) => (
            <li key={item.id}>{renderItem(item, false)}</li>
          ))}
        </ul>
      )}
    </>
  );
}
