import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { RouteErrorBoundary } from '../routes/route-error-boundary';
import { CheckoutReturn } from '../../features/payments/checkout-return';
import { PaywallModal } from '../../features/paywall/paywall-modal';
import { Footer } from './footer';
import { Navbar } from './navbar';
import { useFocusOnNavigation } from './use-focus-on-navigation';
import { useScrollToTopOnNavigation } from './use-scroll-to-top';

export function Layout() {
  const mainRef = useFocusOnNavigation<HTMLElement>();
  const { pathname } = useLocation();
  useScrollToTopOnNavigation();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Navbar />
      <main id="main" tabIndex={-1} ref={mainRef}>
        <RouteErrorBoundary key={pathname}>
          {/* Until a screen's code has loaded, nothing is drawn rather than a half-built page. */}
          <Suspense fallback={null}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
      <CheckoutReturn />
      <PaywallModal />
    </>
  );
}
