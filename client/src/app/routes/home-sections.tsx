import { Link } from '../../lib/router';
import { MarkdownContent } from '../../components/markdown-content';
import { SectionHighlights } from '../../features/content/components/section-highlights';
import { NewsletterSignup } from '../../features/newsletter/newsletter-signup';
import { paths } from '../../config/paths';
import { useScreenCopy, useSiteData } from '../../lib/site-data';

/** The home page below the hero: the pitch from content/pages/home.md and the join offer, then
 * each section's newest items. */
export default function HomeSections() {
  const { highlights } = useSiteData();
  const pitch = useScreenCopy('home', 'Your Generation, Better Informed');
  return (
    <>
      <section className="offer" aria-labelledby="offer-title">
        <div className="offer__inner">
          <h2 id="offer-title">Join the cohort</h2>
          <div className="offer__text">
            <MarkdownContent blocks={pitch.body.children} />
            <p>
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
