import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from '../../lib/router';
import { paths } from '../../config/paths';
import { sectionPath, type SiteSection } from '../../../../contract/sections';
import { useSiteNavigation } from '../../lib/site-navigation';
import { NavigationLink } from './navigation-link';
import { JoinButton } from '../../components/join-button';
import { useSession } from '../../lib/session/session-context';
import { useSiteSettings } from '../../lib/site-settings';
import { ExternalLink } from '../../components/external-link';
import { useScrolledPast } from './use-scrolled-past';
import { useDismiss } from '../../lib/use-dismiss';

// A logo brings its own chunk (its sizes, contract/images.ts): a site without one does without it;
// with one, the server's HTML shows it until the chunk hydrates it.
const SiteLogo = lazy(() =>
  import('../../components/site-logo').then((module) => ({ default: module.SiteLogo })),
);

/** The seed's threshold: the navbar turns solid once scrolled more than 99 px. */
export const SOLID_NAVBAR_AFTER_PX = 99;

/**
 * The sections the wide navbar has room for in its row (the shipped five, with Perks, Sign in,
 * Join and search, from 1200 px): a menu of more shows the first four and a "More" that opens
 * the rest, so the row is as wide as the shipped one. The phone menu lists them all.
 */
export const NAVBAR_SECTIONS = 5;

export function Navbar() {
  const { sentinelRef, scrolled: solid } = useScrolledPast<HTMLDivElement>();
  const location = useLocation();
  const { user, status } = useSession();
  const {
    title: siteName,
    logo,
    socialLinks: [social],
  } = useSiteSettings();
  const { sections, links } = useSiteNavigation();
  const toggleRef = useRef<HTMLButtonElement>(null);
  // The menu remembers the navigation it was opened on (every navigation, even to the page being
  // shown, has a new key), so following any link closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === location.key;
  const menuSections = sections.filter((section) => section.inMenu);
  const inRow =
    menuSections.length > NAVBAR_SECTIONS
      ? menuSections.slice(0, NAVBAR_SECTIONS - 1)
      : menuSections;
  const underMore = menuSections.slice(inRow.length);

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpenOn(null);
      toggleRef.current?.focus();
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

  const className = ['navbar', solid || menuOpen ? 'navbar--solid' : 'navbar--transparent'].join(
    ' ',
  );
  return (
    // The header holds the bar at the top of the window (sticky, no height of its own); the bar
    // lies over the page's dark band (absolute). See .navbar-anchor in styles.css.
    <>
      <div
        className="scroll-sentinel"
        ref={sentinelRef}
        style={{ height: SOLID_NAVBAR_AFTER_PX }}
        aria-hidden="true"
      />
      <header className="navbar-anchor">
        <div className={className} data-testid="navbar">
          <nav className="navbar__inner" aria-label="Main">
            <Link className="navbar__brand" to={paths.home}>
              {logo && (
                <Suspense fallback={null}>
                  <SiteLogo src={logo} />
                </Suspense>
              )}
              <span className="navbar__name">{siteName}</span>
            </Link>
            <NavbarSearch />
            <button
              ref={toggleRef}
              type="button"
              className="navbar__toggle"
              aria-expanded={menuOpen}
              aria-controls="navbar-menu"
              onClick={() => setMenuOpenOn(menuOpen ? null : location.key)}
            >
              <span className="visually-hidden">{menuOpen ? 'Close menu' : 'Open menu'}</span>
              <span className="navbar__toggle-bar" aria-hidden="true" />
            </button>
            <div
              id="navbar-menu"
              className={menuOpen ? 'navbar__menu navbar__menu--open' : 'navbar__menu'}
            >
              <ul className="navbar__links">
                {/* The publisher's sections, in their order; those out of the menu still have pages. */}
                {inRow.map((section) => (
                  <li key={section.id}>
                    <NavLink to={sectionPath(section)}>{section.name}</NavLink>
                  </li>
                ))}
                {underMore.length > 0 && <MoreSections sections={underMore} />}
              </ul>
              {/* Until the server has said who this is, a page it sent a signed-in reader
                  (`<html data-signed-in>`) shows "Account" instead of "Sign in · Join" from its
                  first paint (styles.css): nothing flips when the session arrives. */}
              <div
                className="navbar__actions"
                data-session={status === 'connecting' ? 'unknown' : undefined}
              >
                {links
                  .filter((link) => link.placement === 'navbar')
                  .map((link) => (
                    <NavigationLink key={link.id} link={link} className="navbar__link" />
                  ))}
                {/* The publication's first profile elsewhere (settings); no link without one. */}
                {social && (
                  <ExternalLink href={social.url} className="navbar__social">
                    {social.label}
                  </ExternalLink>
                )}
                <Link className="navbar__account" to={user?.email ? paths.account : paths.login}>
                  {user?.email ? 'Account' : 'Sign in'}
                </Link>
                {status === 'connecting' && (
                  <Link className="navbar__account navbar__account--hint" to={paths.account}>
                    Account
                  </Link>
                )}
                {!user?.isSubscribed && (
                  <JoinButton className="button button--accent navbar__join" problemAs="popover">
                    Join
                  </JoinButton>
                )}
              </div>
            </div>
          </nav>
        </div>
      </header>
    </>
  );
}

/**
 * The sections past the wide row's room, under "More" (a disclosure: it opens on a click and
 * closes on Escape, a click elsewhere or any navigation); in the phone menu, listed like the rest.
 */
function MoreSections({ sections }: { sections: SiteSection[] }) {
  const location = useLocation();
  const itemRef = useRef<HTMLLIElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === location.key;
  const current = sections.some((section) => location.pathname.startsWith(sectionPath(section)));

  const close = useCallback(() => setOpenOn(null), []);
  useDismiss(open, close, { within: itemRef, button: toggleRef });

  return (
    <li className="navbar__more" ref={itemRef}>
      <button
        ref={toggleRef}
        type="button"
        className={
          current ? 'navbar__more-toggle navbar__more-toggle--current' : 'navbar__more-toggle'
        }
        aria-expanded={open}
        aria-controls="navbar-more"
        onClick={() => setOpenOn(open ? null : location.key)}
      >
        More
      </button>
      <ul
        id="navbar-more"
        className={open ? 'navbar__more-list navbar__more-list--open' : 'navbar__more-list'}
      >
        {sections.map((section) => (
          <li key={section.id}>
            <NavLink to={sectionPath(section)}>{section.name}</NavLink>
          </li>
        ))}
      </ul>
    </li>
  );
}

/**
 * Search from every page: a link to the search page, whose box takes the focus (the bar has no
 * room for a box of its own beside the sections at any width).
 */
function NavbarSearch() {
  return (
    <Link className="navbar__search" to={paths.search}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
        <path d="m15.5 15.5 5 5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
      </svg>
      <span className="visually-hidden">Search</span>
    </Link>
  );
}
