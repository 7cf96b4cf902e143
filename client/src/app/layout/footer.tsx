import { Link } from '../../lib/router';
import { paths, policyPages } from '../../config/paths';
import { useSiteNavigation } from '../../lib/site-navigation';
import { useSiteSettings } from '../../lib/site-settings';
import { paragraphsOf } from '../../lib/plain-text';
import { MenuSectionLinks } from './menu-section-links';
import { NavigationLink } from './navigation-link';

/** Offers to pay: gone on a site without payments (styles.css, `.for-sale`). */
const FOR_SALE = new Set<string>([paths.gift, paths.payItForward]);

export default function Footer() {
  const { title: siteName, footerText, socialLinks } = useSiteSettings();
  const { links } = useSiteNavigation();
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__about">
          <p className="footer__brand">{siteName}</p>
          {/* The publisher's words (settings), as text: nothing in them is markup. */}
          {paragraphsOf(footerText).map((paragraph, at) => (
            <p key={at} className="footer__text">
              {paragraph}
            </p>
          ))}
          {socialLinks.length > 0 && (
            <ul className="footer__social" aria-label={`${siteName} elsewhere`}>
              {socialLinks.map((link, at) => (
                <li key={at}>
                  {/* The publication's own profiles: `me`, which those sites read to verify them. */}
                  <a href={link.url} target="_blank" rel="noopener noreferrer me">
                    {link.label}
                    <span className="visually-hidden"> (opens in a new tab)</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
        <nav aria-label="Sections" className="footer__column">
          <h2 className="footer__heading">Sections</h2>
          <MenuSectionLinks className="footer__links" />
        </nav>
        <nav aria-label={`More from ${siteName}`} className="footer__column">
          <h2 className="footer__heading">More</h2>
          <ul className="footer__links">
            {/* The publisher's footer links (the desk's Sections page), in their order. */}
            {links
              .filter((link) => link.placement === 'footer')
              .map((link) => (
                <li key={link.id} className={FOR_SALE.has(link.address) ? 'for-sale' : undefined}>
                  <NavigationLink link={link} />
                </li>
              ))}
            {/* Every article by month: where old date addresses and a reader looking back land. */}
            <li>
              <Link to={paths.archive}>Archive</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Site policies" className="footer__column">
          <h2 className="footer__heading">Policies</h2>
          <ul className="footer__links">
            {policyPages.map((page) => (
              <li key={page.path}>
                <Link to={page.path}>{page.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="footer__note">
          © {new Date().getFullYear()} {siteName}.
        </p>
      </div>
    </footer>
  );
}
