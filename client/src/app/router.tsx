import { useRoutes } from '../lib/router';
import { useSiteNavigation } from '../lib/site-navigation';
import { appRoutes, type DeskMark } from './screens';

// The screens are the table of contract/screens.ts, drawn by app/screens.tsx. Plain routes rather
// than a data router (docs/decisions/0020-react-router.md): the data router costs about 15 KB gzip
// of the first load (tests/bench/client-size.ts), and no screen needs loaders or actions.

/**
 * The server marks the page it sends staff at /desk (`<html data-desk>`); to anyone else it sends
 * the not-found page, which must hydrate as the not-found page. Never while prerendering.
 */
function deskMark(): DeskMark {
  if (typeof document === 'undefined') return null;
  const mark = document.documentElement.getAttribute('data-desk');
  return mark === '' ? 'desk' : mark === 'verify-address' ? 'verify-address' : null;
}

export function AppRoutes() {
  // Each section of articles has its list and its articles' pages, wherever the publisher put it.
  return useRoutes(appRoutes(useSiteNavigation().sections, deskMark()));
}
