import { Link } from '../../lib/router';
import { MarkdownContent } from '../../components/markdown-content';
import { SectionHighlights } from '../../features/content/components/section-highlights';
import { NewsletterSignup } from '../../features/newsletter/newsletter-signup';
import { paths } from '../../config/paths';
import { useScreenCopy, useSiteData } from '../../lib/site-data';
import { formatPrice, useSiteConfig } from '../../lib/site-config';

/**
 * The home page below the hero: the pitch (the `home` page post's body, when it has one) and the
 * join offer, then the featured articles and the chosen sections' newest items, drawn in the
 * layout the owners chose (settings.home.layout; styles/home-layouts.css).
 */
export default function HomeSections() {
  const { highlights, settings } = useSiteData();
  const pitch = useScreenCopy('home', '');
  // The year's price as the plans say it today (the desk's Plans page), never a number in the copy;
  // its line keeps its height until the configuration arrives, and stays empty without payments.
  const config = useSiteConfig();
  const layout = settings?.home.layout ?? 'grid';
  return (
    <>
      {pitch.body.children.length > 0 && (
        <section className="offer" aria-labelledby="offer-title">
          <div className="offer__inner">
            <h2 id="offer-title">Join the cohort</h2>
            <div className="offer__text">
              <MarkdownContent blocks={pitch.body.children} />
              <p className="offer__price">
                {config?.paymentsEnabled &&
                  `${formatPrice(config.priceCents, config.currency)} for your first year.`}
              </p>
              <p className="for-sale">
                <Link className="button" to={paths.earlyAccess}>
                  Get early access
                </Link>
              </p>
            </div>
          </div>
        </section>
      )}
      <div className={`page-body home-lists home-lists--${layout}`} id="latest">
        {highlights && <SectionHighlights highlights={highlights} layout={layout} />}
      </div>
      <NewsletterSignup />
    </>
  );
}
