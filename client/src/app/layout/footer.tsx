import { Link } from '../../lib/router';
import { paths, policyPages, sectionLinks, topicPages } from '../../config/paths';
import { useSiteName } from '../../lib/site-name';

export default function Footer() {
  const siteName = useSiteName();
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__about">
          <p className="footer__brand">{siteName}</p>
          <p>
            Trusted health and money guides, causes to back and free learning for Millennials and
            Gen Z.
          </p>
        </div>
        <nav aria-label="Sections" className="footer__column">
          <h2 className="footer__heading">Sections</h2>
          <ul className="footer__links">
            {[
              ...sectionLinks,
              { to: paths.perks, label: 'Member perks' },
              { to: paths.newsletter, label: 'Newsletter' },
              { to: paths.gift, label: 'Give a year' },
              { to: paths.payItForward, label: 'Pay it forward' },
            ].map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label={`More from ${siteName}`} className="footer__column">
          <h2 className="footer__heading">More</h2>
          <ul className="footer__links">
            {topicPages.map((page) => (
              <li key={page.path}>
                <Link to={page.path}>{page.label}</Link>
              </li>
            ))}
            <li>
              <Link to={paths.topics}>All topics</Link>
            </li>
            <li>
              <Link to={paths.search}>Search</Link>
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
          © {new Date().getFullYear()} {siteName}. Built for Millennials and Gen Z.
        </p>
      </div>
    </footer>
  );
}
