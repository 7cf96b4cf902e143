import { Link } from 'react-router-dom';
import { useDocumentHead } from '../../lib/document-head';
import { paths } from '../paths';

export function NotFoundRoute() {
  useDocumentHead('Page not found', 'There is no page at this address.');
  return (
    <section className="page page--narrow not-found">
      <p className="eyebrow">404</p>
      <h1>Page not found</h1>
      <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link className="button" to={paths.home}>
          Go to the home page
        </Link>
      </p>
    </section>
  );
}
