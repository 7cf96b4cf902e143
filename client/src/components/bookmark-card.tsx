import type { BookmarkNode } from '../../../contract/markdown-tree';
import { CardPicture } from './card-picture';
import { ExternalLink } from './external-link';
import './card-link.css';
import './bookmark-card.css';

/** Beside the words on a wide screen (a third of the column), above them on a phone. */
const BOOKMARK_IMAGE_SIZES = '(min-width: 48rem) 14rem, calc(100vw - 2.5rem)';

/** The host an address names, without `www.`: what a reader knows a site by. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/**
 * A page elsewhere, as what was read of it: one link holding its title, description, site and
 * image (an upload of this site).
 */
export function BookmarkCard({ bookmark }: { bookmark: BookmarkNode }) {
  const host = hostOf(bookmark.url);
  const site =
    bookmark.siteName && bookmark.siteName.toLowerCase() !== host
      ? `${bookmark.siteName} · ${host}`
      : host;
  return (
    <figure className="bookmark">
      <ExternalLink href={bookmark.url} className="bookmark__link">
        <span className="bookmark__words">
          <span className="bookmark__title">{bookmark.title}</span>
          {bookmark.description && (
            <span className="bookmark__description">{bookmark.description}</span>
          )}
          <span className="bookmark__site">{site}</span>
        </span>
        {bookmark.image && (
          <CardPicture
            image={bookmark.image}
            sizes={BOOKMARK_IMAGE_SIZES}
            className="bookmark__image"
          />
        )}
      </ExternalLink>
    </figure>
  );
}
