import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { readEmbeddedSiteData } from './lib/site-data';
import './styles.css';
import './styles/home-and-cards.css';
import './styles/reading.css';
import './styles/sections.css';
import './styles/home-layouts.css';
import './styles/theme.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The content the server drew this page with: the first render draws the same HTML from it.
readEmbeddedSiteData(window.location.pathname);

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// A page the server drew (server/src/site/) is adopted as it is; the shell of the pages that
// are drawn only in the browser (sign-in, the account) is rendered from scratch. Hydrating inside a
// transition lets React do it in slices between which the browser answers the reader's input,
// instead of one task as long as the page (React's own advice for hydrateRoot).
if (container.hasChildNodes()) startTransition(() => void hydrateRoot(container, app));
else createRoot(container).render(app);
