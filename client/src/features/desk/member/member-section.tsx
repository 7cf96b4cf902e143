import type { ReactNode } from 'react';

/** One part of a member's record: its title with how many, and a sentence when there is none. */
export function MemberSection({
  title,
  count,
  empty,
  children,
}: {
  title: string;
  count: number;
  empty: string;
  children: ReactNode;
}) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="desk-section" aria-labelledby={id}>
      <h2 id={id}>
        {title} <span className="desk__count">{count}</span>
      </h2>
      {count === 0 ? <p className="desk__empty">{empty}</p> : children}
    </section>
  );
}
