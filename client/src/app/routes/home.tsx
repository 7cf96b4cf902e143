import { lazy, Suspense } from 'react';
import { Link } from '../../lib/router';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { paths } from '../../config/paths';
import { useScreenCopy } from '../../lib/site-data';

// Below the hero, the pitch's body, the offer and the newest items load as a chunk of their own:
// the hero and the navbar are interactive without them.
const HomeSections = lazy(() => import('./home-sections'));

/** The home page: the pitch, the join offer, each section's newest items. */
export function HomeRoute() {
  const siteName = useSiteName();
  const pitch = useScreenCopy('home', 'Your Generation, Better Informed');
  // The site's name and its line, as the hero gives them: "Cohort · Your Generation, Better Informed".
  useDocumentHead({ full: `${siteName} · ${pitch.title}` }, pitch.description);
  return (
    <>
      <section className="hero" aria-labelledby="home-title">
        <div className="hero__inner">
          <p className="eyebrow">{siteName}</p>
          <h1 id="home-title">{pitch.title}</h1>
          <p className="hero__lede">{pitch.description}</p>
          <p className="hero__actions">
            {/* Gone on a site without payments (styles.css, `.for-sale`): nothing to buy there. */}
            <Link className="button button--accent for-sale" to={paths.earlyAccess}>
              Get early access
            </Link>
            <a className="button button--ghost" href="#latest">
              Start reading
            </a>
          </p>
        </div>
      </section>
      <Suspense fallback={<div className="home-sections-pending" />}>
        <HomeSections />
      </Suspense>
    </>
  );
}
