import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { paths, sectionLinks, socialProfileUrl } from '../../app/paths';
import { useScrolledPast } from './use-scrolled-past';

/** The seed's threshold: the navbar turns solid once scrolled more than 99 px. */
export const SOLID_NAVBAR_AFTER_PX = 99;

export function Navbar() {
  const solid = useScrolledPast(SOLID_NAVBAR_AFTER_PX);
  const location = useLocation();
  // The menu remembers the page it was opened on, so navigating anywhere closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === location.pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? location.pathname : null);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpenOn(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const className = ['navbar', solid || menuOpen ? 'navbar--solid' : 'navbar--transparent'].join(
    ' ',
  );
  return (
    <header className={className} data-testid="navbar">
      <nav className="navbar__inner" aria-label="Main">
        <Link className="navbar__brand" to={paths.home}>
          Cohort
        </Link>
        <button
          type="button"
          className="navbar__toggle"
          aria-expanded={menuOpen}
          aria-controls="navbar-menu"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span className="visually-hidden">{menuOpen ? 'Close menu' : 'Open menu'}</span>
          <span className="navbar__toggle-bar" aria-hidden="true" />
        </button>
        <div
          id="navbar-menu"
          className={menuOpen ? 'navbar__menu navbar__menu--open' : 'navbar__menu'}
        >
          <ul className="navbar__links">
            {sectionLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to}>{link.label}</NavLink>
              </li>
            ))}
          </ul>
          <div className="navbar__actions">
            <a
              href={socialProfileUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="navbar__social"
            >
              Instagram<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
            <Link className="button button--accent navbar__join" to={paths.earlyAccess}>
              Join
            </Link>
          </div>
        </div>
      </nav>
    </header>
  );
}
