import { Link } from '../../lib/router';
import { PageMasthead } from '../../components/page-masthead';
import { useDocumentHead } from '../../lib/document-head';
import { paths } from '../../config/paths';
import { useSiteData } from '../../lib/site-data';
import { MenuSectionLinks } from '../layout/menu-section-links';

/**
 * An address with no page: never one (404), or a post the publisher took down (410, the site
 * data's `removed`), which says so rather than blaming the link.
 */
export default function NotFoundRoute() {
  const { removed } = useSiteData();
  useDocumentHead(
    removed ? 'Page removed' : 'Page not found',
    removed ? 'What was at this address has been taken down.' : 'There is no page at this address.',
    undefined,
    removed ? 410 : 404,
  );
  return (
    <>
      {removed ? (
        <PageMasthead
          eyebrow="410"
          title="This page was removed"
          lede="What was here has been taken down by the publisher, and this address will not bring it back."
        />
      ) : (
        <PageMasthead
          eyebrow="404"
          title="Page not found"
          lede="There is no page at this address. It may have moved, or the link may be mistyped."
        />
      )}
      <div className="page-body not-found">
        <h2>Try one of these instead</h2>
        <MenuSectionLinks className="link-list" />
        <form className="search-form not-found__search" role="search" action={paths.search}>
          <label htmlFor="not-found-q">Or search the site</label>
          <div className="search-form__row">
            <input id="not-found-q" name="q" type="search" enterKeyHint="search" />
            <button className="button button--outline" type="submit">
              Search
            </button>
          </div>
        </form>
        <p>
          <Link className="button" to={paths.home}>
            Go to the home page
          </Link>
        </p>
      </div>
    </>
  );
}
