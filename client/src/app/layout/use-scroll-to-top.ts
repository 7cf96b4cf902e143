import { useEffect } from 'react';
import { useLocation, useNavigationType } from '../../lib/router';

/** How long a link's `#target` is looked for while its page loads. */
const FIND_TARGET_MS = 2_000;

/**
 * A new page starts at its top, or at the element its address's `#hash` names (once the page,
 * which may load on demand, has drawn it); Back and Forward leave the browser's own scroll
 * restoration to put the reader where they were.
 */
export function useScrollToTopOnNavigation() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType === 'POP') return;
    if (!hash) {
      window.scrollTo(0, 0);
      return;
    }
    const id = hash.slice(1);
    const until = performance.now() + FIND_TARGET_MS;
    let frame = 0;
    const find = () => {
      const target = document.getElementById(id);
      if (target) target.scrollIntoView({ block: 'start' });
      else if (performance.now() < until) frame = requestAnimationFrame(find);
    };
    find();
    return () => cancelAnimationFrame(frame);
  }, [pathname, hash, navigationType]);
}
