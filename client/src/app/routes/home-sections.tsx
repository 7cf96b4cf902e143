import { Link } from '../../lib/router';
import { MarkdownContent } from '../../components/markdown-content';
import { SectionHighlights } from '../../features/content/components/section-highlights';
import { NewsletterSignup } from '../../features/newsletter/newsletter-signup';
import { paths } from '../../config/paths';
import { useScreenCopy, useSiteData } from '../../lib/site-data';
import { formatPrice, useSiteConfig } from '../../lib/site-config';

/** The home page below the hero: the pitch from content/pages/home.md and the join offer, then
 * each section's newest items. */
export default function HomeSections() {
  const { highlights } = useSiteData();
  const pitch = useScreenCopy('home', 'Your Generation, Better Informed');
  // The year's price as the plans say it today (the desk's Plans page), never a number in the copy;
  // its line keeps its height until the configuration arrives, and stays empty without payments.
  const config = useSiteConfig();
  return (
    <>
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
      <div className="page-body" id="latest">
        {highlights && <SectionHighlights highlights={highlights} />}
      </div>
      <NewsletterSignup />
    </>
  );
}
