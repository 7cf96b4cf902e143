import type { ReactNode } from 'react';
import { Link } from '../../../lib/router';
import { ExternalLink } from '../../../components/external-link';
import { toneStyle } from '../../../lib/site-navigation';
import { ContentImage } from './content-image';

export interface ContentCardProps {
  title: string;
  /** A path on this site, or an http(s) address that opens in a new tab. */
  href: string;
  external?: boolean;
  image: string;
  /** Its section's colour (contract/sections.ts); the site's brand colour when it has none. */
  tone: string | undefined;
  eyebrow?: ReactNode;
  summary: string;
  footer?: ReactNode;
  headingLevel?: 2 | 3;
  /** The newest item, drawn large at the top of a list. */
  featured?: boolean;
  /** Its id on the page, for a link to its place in the list (a search result). */
  anchor?: string;
  /** Its image loads at once (the first card of a page, likely its largest paint). */
  priority?: boolean;
  /**
   * A restricted post's badge, who reads it whole ("Members only", "Available on Founder"): the
   * card says so, as search results do.
   */
  readers?: string | undefined;
}

/**
 * A card whose title is its link; the link's hit area covers the whole card, so the card is one
 * tab stop with a short accessible name.
 */
export function ContentCard({
  title,
  href,
  external = false,
  image,
  tone,
  eyebrow,
  summary,
  footer,
  headingLevel = 2,
  featured = false,
  anchor,
  priority = featured,
  readers,
}: ContentCardProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <article
      className={featured ? 'card card--featured' : 'card'}
      id={anchor}
      style={toneStyle(tone)}
    >
      <ContentImage
        className="card__image"
        src={image}
        priority={priority}
        sizes={featured ? '(min-width: 48rem) 60vw, 100vw' : '(min-width: 48rem) 33vw, 100vw'}
      />
      <div className="card__body">
        {eyebrow && <p className="card__eyebrow">{eyebrow}</p>}
        <Heading className="card__title">
          {external ? (
            <ExternalLink className="card__link" href={href}>
              {title}
            </ExternalLink>
          ) : (
            <Link className="card__link" to={href}>
              {title}
            </Link>
          )}
        </Heading>
        <p className="card__summary">{summary}</p>
        {(footer || readers) && (
          <div className="card__footer">
            {footer}
            {readers && <span className="members-badge card__members">{readers}</span>}
          </div>
        )}
      </div>
    </article>
  );
}
