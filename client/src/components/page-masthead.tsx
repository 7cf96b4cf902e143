import type { ReactNode } from 'react';

/**
 * The dark band every page starts with: it holds the page's H1 and sits under the navbar, which
 * is transparent at the top of the page and needs a dark background to stay readable.
 */
export function PageMasthead({
  eyebrow,
  title,
  lede,
  before,
  children,
}: {
  eyebrow?: string;
  title: string;
  lede?: string;
  /** Above the title, e.g. a back link. */
  before?: ReactNode;
  /** Below the lede, e.g. article details. */
  children?: ReactNode;
}) {
  return (
    <header className="masthead">
      <div className="masthead__inner">
        {before}
        {eyebrow && <p className="eyebrow">{eyebrow}</p>}
        <h1>{title}</h1>
        {lede && <p className="masthead__lede">{lede}</p>}
        {children}
      </div>
    </header>
  );
}
