import { highlights } from 'virtual:content/home-highlights';
import pitch from 'virtual:content/page/home';
import { Link } from 'react-router-dom';
import { MarkdownContent } from '../../components/markdown-content';
import { SectionHighlights } from '../../features/content/components/section-highlights';
import { NewsletterSignup } from '../../features/newsletter/newsletter-signup';
import { paths } from '../../config/paths';

/** The home page below the hero: the pitch from content/pages/home.md and the join offer, then
 * each section's newest items. */
export default function HomeSections() {
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
        <SectionHighlights highlights={highlights} />
      </div>
      <NewsletterSignup />
    </>
  );
}
