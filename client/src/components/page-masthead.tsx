import type { ReactNode } from 'react';
import { Link } from '../lib/router';

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

/** "← Back to …" above a page's title: the list the page belongs to. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="back-link">
      <Link to={to}>
        <span aria-hidden="true">← </span>
        {children}
      </Link>
    </p>
  );
}
