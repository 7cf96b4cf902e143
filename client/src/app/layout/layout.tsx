import { lazy, Suspense, type ReactNode } from 'react';
import { useLocation } from '../../lib/router';
import { RouteErrorBoundary } from '../routes/route-error-boundary';
import { useQueryParamOnce } from '../../lib/use-query-param';
import { PaywallGate } from '../../features/paywall/paywall-gate';
import { Navbar } from './navbar';
import { useFocusOnNavigation } from './use-focus-on-navigation';
import { usePageviewBeacon } from './use-pageview-beacon';
import { useScrollToTopOnNavigation } from './use-scroll-to-top';

// Only a visitor back from Stripe Checkout needs it: loaded then, not on every first visit.
const CheckoutReturn = lazy(() => import('../../features/payments/checkout-return'));
// Below every page's content: its links work as plain links in the prerendered HTML until its
// chunk hydrates them, so the first load's JavaScript does without it (tests/bench/client-size.ts).
const Footer = lazy(() => import('./footer'));

/** Every page but the desk's: the navbar, the screen (`children`), the footer and the paywall. */
export function Layout({ children }: { children: ReactNode }) {
  const backFromCheckout = useQueryParamOnce('checkout_session_id') !== null;
  const mainRef = useFocusOnNavigation<HTMLElement>();
  const { pathname } = useLocation();
  useScrollToTopOnNavigation();
  usePageviewBeacon();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Navbar />
      <main id="main" tabIndex={-1} ref={mainRef}>
        <RouteErrorBoundary key={pathname}>
          {/* Until a screen's code has loaded, nothing is drawn rather than a half-built page. */}
          <Suspense fallback={null}>{children}</Suspense>
        </RouteErrorBoundary>
      </main>
      <Suspense fallback={null}>
        <Footer />
      </Suspense>
      {backFromCheckout && (
        <Suspense fallback={null}>
          <CheckoutReturn />
        </Suspense>
      )}
      <PaywallGate />
    </>
  );
}
