import { useEffect, useRef } from 'react';
import { useLocation } from '../../lib/router';

/**
 * After a navigation to another page (not on the first load, not when following a link to an
 * anchor), focus moves to the returned element, so keyboard and screen-reader users start at the
 * new page's content rather than at the link they followed.
 */
export function useFocusOnNavigation<Target extends HTMLElement>() {
  const targetRef = useRef<Target>(null);
  const { pathname, hash } = useLocation();
  const shownPathname = useRef(pathname);
  useEffect(() => {
    if (shownPathname.current === pathname) return;
    shownPathname.current = pathname;
    if (!hash) targetRef.current?.focus({ preventScroll: true });
  }, [pathname, hash]);
  return targetRef;
}
