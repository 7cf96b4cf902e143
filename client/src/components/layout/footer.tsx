import { Link } from 'react-router-dom';
import { placeholderPages } from '../../app/paths';

export function Footer() {
  return (
    <footer className="footer">
      <div className="footer__inner">
        <p className="footer__brand">Cohort</p>
        <nav aria-label="More from Cohort">
          <ul className="footer__links">
            {placeholderPages.map((page) => (
              <li key={page.path}>
                <Link to={page.path}>{page.title}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="footer__note">
          © {new Date().getFullYear()} Cohort. Built for Millennials and Gen Z.
        </p>
      </div>
    </footer>
  );
}
