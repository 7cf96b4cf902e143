import { lazy, Suspense } from 'react';
import { Link } from '../../lib/router';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { paths } from '../../config/paths';
import { useScreenCopy, useSiteData } from '../../lib/site-data';

// Below the hero, the pitch's body, the offer and the lists load as a chunk of their own: the hero
// and the navbar are interactive without them.
const HomeSections = lazy(() => import('./home-sections'));

/** Where paying starts: a hero button there is gone on a site without payments (`.for-sale`). */
const FOR_SALE = new Set<string>([paths.earlyAccess, paths.gift, paths.payItForward]);

/**
 * The home page: the hero the owners set in the desk (settings.home.hero, none when null), the
 * pitch and join offer, then the featured articles and the sections they chose.
 */
export function HomeRoute() {
  const siteName = useSiteName();
  const { settings } = useSiteData();
  const pitch = useScreenCopy('home', '');
  const hero = settings?.home.hero ?? null;
  // The site's name, then the hero's heading, as other pages name themselves before the site.
  useDocumentHead(
    { full: hero ? `${siteName} · ${hero.heading}` : siteName },
    settings?.description || hero?.text || pitch.description,
  );
  const button = hero?.button;
  return (
    <>
      {hero ? (
        <section className="hero" aria-labelledby="home-title">
          <div className="hero__inner">
            <p className="eyebrow">{siteName}</p>
            <h1 id="home-title">{hero.heading}</h1>
            {hero.text && <p className="hero__lede">{hero.text}</p>}
            {button && (
              <p className="hero__actions">
                {/* An address elsewhere is an ordinary link (react-router's Link sees to that). */}
                <Link
                  className={`button button--accent${FOR_SALE.has(button.href.split(/[?#]/)[0] ?? '') ? ' for-sale' : ''}`}
                  to={button.href}
                >
                  {button.label}
                </Link>
              </p>
            )}
          </div>
        </section>
      ) : (
        // No hero: a band under the navbar's light words, and a heading for those who move by them.
        <div className="home-band">
          <h1 className="visually-hidden">{siteName}</h1>
        </div>
      )}
      <Suspense fallback={<div className="home-sections-pending" />}>
        <HomeSections />
      </Suspense>
    </>
  );
}
