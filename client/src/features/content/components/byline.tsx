import { Fragment } from 'react';
import type { AuthorCredit } from '../../../../../contract/authors';
import { AUTHORS_PATH } from '../../../config/paths';
import { Link } from '../../../lib/router';

/**
 * "By Ana Ruiz and Sam Lee" under a post's title, each name linking to the author's page; nothing
 * for a post credited to nobody.
 */
export function Byline({ authors }: { authors?: readonly AuthorCredit[] }) {
  if (!authors || authors.length === 0) return null;
  return (
    <p className="byline">
      {'By '}
      {authors.map((author, index) => (
        <Fragment key={author.slug}>
          {index > 0 && (index === authors.length - 1 ? ' and ' : ', ')}
          <Link to={`${AUTHORS_PATH}/${author.slug}`} rel="author">
            {author.name}
          </Link>
        </Fragment>
      ))}
    </p>
  );
}
