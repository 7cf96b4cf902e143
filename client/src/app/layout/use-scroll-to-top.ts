import { useEffect } from 'react';
import { useLocation, useNavigationType } from '../../lib/router';

/**
 * A new page starts at its top; Back and Forward leave the browser's own scroll restoration to
 * put the reader where they were.
 */
export function useScrollToTopOnNavigation() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType !== 'POP' && !hash) window.scrollTo(0, 0);
  }, [pathname, hash, navigationType]);
}
