import { Link } from '../../lib/router';
import { PageMasthead } from '../../components/page-masthead';
import { useDocumentHead } from '../../lib/document-head';
import { paths, sectionLinks } from '../../config/paths';

export default function NotFoundRoute() {
  useDocumentHead('Page not found', 'There is no page at this address.', undefined, 404);
  return (
    <>
      <PageMasthead
        eyebrow="404"
        title="Page not found"
        lede="There is no page at this address. It may have moved, or the link may be mistyped."
      />
      <div className="page-body not-found">
        <h2>Try one of these instead</h2>
        <ul className="link-list">
          {sectionLinks.map((link) => (
            <li key={link.to}>
              <Link to={link.to}>{link.label}</Link>
            </li>
          ))}
        </ul>
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
