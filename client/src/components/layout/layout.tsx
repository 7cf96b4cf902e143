import { Outlet, ScrollRestoration } from 'react-router-dom';
import { Footer } from './footer';
import { Navbar } from './navbar';

export function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Navbar />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </>
  );
}
