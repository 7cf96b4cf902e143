import { useEffect, useRef, useState } from 'react';

/**
 * True once the page is scrolled past an element drawn from the top of the document (the returned
 * ref; `.scroll-sentinel` in styles.css, as tall as the threshold): the page is past the threshold
 * when that element has left the viewport. An IntersectionObserver reports it without reading the
 * scroll position, which would make the browser lay out the page while it is being hydrated
 * (Lighthouse's "forced reflow").
 */
export function useScrolledPast<Sentinel extends HTMLElement>() {
  const sentinelRef = useRef<Sentinel>(null);
  // False at first, as on the server (a prerendered page hydrates as it was drawn); the observer
  // reports the real position with its first callback.
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel) return;
    const observer = new IntersectionObserver(([entry]) => {
      if (entry) setScrolled(!entry.isIntersecting);
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, []);
  return { sentinelRef, scrolled };
}
