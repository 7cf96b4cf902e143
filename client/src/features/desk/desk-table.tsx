import type { ReactNode } from 'react';

/**
 * A desk table: caption, column headers, then the page's own rows. `cards` tables turn into one
 * card a row on a phone (each cell shows its `data-label`); the others scroll sideways in a box of
 * their own rather than widening the page (desk.css). `actions` adds a last column for a row's
 * buttons, named only for screen readers; a `false` column is one this staff member does not get.
 * `numbers` tables are figures: their cells align right, as their column headers after the first.
 */
export function DeskTable({
  caption,
  captionHidden = false,
  columns,
  actions = false,
  cards = false,
  numbers = false,
  children,
}: {
  caption?: string;
  /** Said to screen readers only: the page's heading already says what the table is. */
  captionHidden?: boolean;
  columns: (string | false)[];
  actions?: boolean;
  cards?: boolean;
  numbers?: boolean;
  children: ReactNode;
}) {
  const table = (
    <table
      className={['desk-table', numbers && 'desk-table--numbers', cards && 'desk-table--cards']
        .filter(Boolean)
        .join(' ')}
    >
      {caption && (
        <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
      )}
      <thead>
        <tr>
          {columns.map(
            (column) =>
              column && (
                <th key={column} scope="col">
                  {column}
                </th>
              ),
          )}
          {actions && (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  return cards ? table : <div className="desk-scroll">{table}</div>;
}
