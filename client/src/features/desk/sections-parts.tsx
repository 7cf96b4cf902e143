import type { FormEvent, ReactNode } from 'react';
import type { RowReport } from './outcome';
import { describeError } from './use-desk-data';

// The pieces the sections page's two lists (sections-page.tsx, site-links-list.tsx) share.

/** "3 posts", "1 post". */
export const postsWord = (count: number) => (count === 1 ? '1 post' : `${count} posts`);

/** Runs a change and says how it went on the page's one line. */
export async function run(report: RowReport, done: string, change: () => Promise<unknown>) {
  report.start();
  try {
    await change();
    report.done({ ok: true, text: done });
  } catch (error) {
    report.done({ ok: false, text: describeError(error) });
  }
}

/** What a row of one of the desk's ordered lists is told besides its item. */
export interface ListRowProps {
  /** Where it stands: the first cannot move up, the last down. */
  first: boolean;
  last: boolean;
  mayChange: boolean;
  report: RowReport;
}

/**
 * One of the desk's ordered lists (the sections, the links, the tiers): each item drawn by `row`,
 * told where it stands.
 */
export function OrderedRows<T>({
  label,
  className,
  items,
  keyOf,
  row,
}: {
  label: string;
  className: string;
  items: readonly T[];
  /** Changes when the item does, so a row's fields start again from what was saved. */
  keyOf: (item: T) => string;
  row: (item: T, place: Pick<ListRowProps, 'first' | 'last'>) => ReactNode;
}) {
  return (
    <ol className={className} aria-label={label}>
      {items.map((item, index) => (
        <li key={keyOf(item)}>
          {row(item, { first: index === 0, last: index === items.length - 1 })}
        </li>
      ))}
    </ol>
  );
}

export function MoveButtons({
  label,
  first,
  last,
  onMove,
}: {
  label: string;
  first: boolean;
  last: boolean;
  onMove: (by: -1 | 1) => void;
}) {
  return (
    <>
      <button
        className="button button--outline desk-sections__move"
        type="button"
        disabled={first}
        aria-label={`Move ${label} up`}
        onClick={() => onMove(-1)}
      >
        ↑
      </button>
      <button
        className="button button--outline desk-sections__move"
        type="button"
        disabled={last}
        aria-label={`Move ${label} down`}
        onClick={() => onMove(1)}
      >
        ↓
      </button>
    </>
  );
}

/** A row's buttons for who may change it: Save (its form's), move up and down, then `children`. */
export function RowActions({
  label,
  place,
  onMove,
  children,
}: {
  label: string;
  place: Pick<ListRowProps, 'first' | 'last'>;
  onMove: (by: -1 | 1) => void;
  children: ReactNode;
}) {
  return (
    <p className="desk-topic__actions">
      <button className="button" type="submit">
        Save
      </button>
      <MoveButtons label={label} first={place.first} last={place.last} onMove={onMove} />
      {children}
    </p>
  );
}

export function AddForm({
  title,
  submit,
  onSubmit,
  children,
}: {
  title: string;
  submit: string;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <form className="desk-topic desk-sections__add" onSubmit={onSubmit} aria-label={title}>
      <h2 className="desk-topic__name">{title}</h2>
      {children}
      <p className="desk-topic__actions">
        <button className="button button--accent" type="submit">
          {submit}
        </button>
      </p>
    </form>
  );
}

/** A labelled one-line text box of this page's forms. */
export function TextField({
  label,
  value,
  onChange,
  maxLength,
  required = false,
  readOnly = false,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  required?: boolean;
  readOnly?: boolean;
  placeholder?: string;
}) {
  return (
    <label className="desk-field">
      <span>{label}</span>
      <input
        value={value}
        required={required}
        placeholder={placeholder}
        maxLength={maxLength}
        readOnly={readOnly}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}
