import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { siteIconsPlugin } from './client/build/vite-plugin-site-icons.js';
import { scriptsAfterContentPlugin } from './client/build/vite-plugin-scripts-after-content.js';
import { SERVER_PATHS } from './contract/constants.js';
import { SITE_FILES } from './contract/site-index.js';
import { fillPrerenderedPage } from './contract/prerendered.js';

const serverUrl = process.env.COHORT_SERVER_URL ?? 'http://127.0.0.1:3000';
const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Two builds: the client (dist/client), then with `--ssr` the same app for Node (dist/ssr), with
// which the server draws every page from the content in the database (server/src/site/). Neither
// reads content/: the build is the same for every site. scripts/build-client.mjs runs both.
export default defineConfig(({ command, isSsrBuild }) => ({
  root: fromRoot('./client'),
  plugins: [
    react(),
    {
      // `npm run dev` serves index.html itself: it names the site as the server would at start.
      name: 'site-name-in-dev',
      apply: 'serve',
      transformIndexHtml: (html: string) =>
        fillPrerenderedPage(html, { url: serverUrl, name: process.env.SITE_NAME ?? 'Cohort' }),
    },
    ...(isSsrBuild
      ? []
      : [
          siteIconsPlugin({ svgFile: fromRoot('./client/public/favicon.svg') }),
          scriptsAfterContentPlugin(),
        ]),
  ],
  resolve: {
    alias: [
      // react-router's package exports name only its development build (no `production`
      // condition), warnings and all; a build takes the production files the package also ships.
      ...(command === 'build'
        ? [
            {
              find: /^react-router$/,
              replacement: fromRoot('./node_modules/react-router/dist/production/index.mjs'),
            },
            {
              find: /^react-router\/dom$/,
              replacement: fromRoot('./node_modules/react-router/dist/production/dom-export.mjs'),
            },
          ]
        : []),
      // The editor's @tiptap/react reaches React's useSyncExternalStore through a shim for React
      // 17 and older; React 19 has it.
      {
        find: /^use-sync-external-store\/shim\/index\.js$/,
        replacement: fromRoot('./client/src/lib/use-sync-external-store.ts'),
      },
    ],
  },
  build: {
    outDir: fromRoot(isSsrBuild ? './dist/ssr' : './dist/client'),
    emptyOutDir: true,
    // The server runs the Node build: no public copies of the client's files beside it.
    copyPublicDir: !isSsrBuild,
    // One stylesheet for every screen (about 6 KB gzipped), linked by every prerendered page: a
    // screen's own CSS arriving with its script later would move the page it was drawn on.
    cssCodeSplit: false,
    // Maps are written for debugging but not referenced from the served files.
    sourcemap: 'hidden',
    // Browsers without native modulepreload (Safari before 17) still load every module; the
    // polyfill would only speed them up, at a cost to every other browser's first load.
    modulePreload: { polyfill: false },
    // Everything the entry imports statically in one chunk: split in two (React apart), the first
    // load costs about 0.5 KB more gzip, and both are needed before the page is interactive.
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } },
    },
  },
  // The Node build carries its libraries (React, the router, Stripe's React bindings): the image
  // installs only the server's dependencies, and the browser's stay dev dependencies.
  ssr: { noExternal: true },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      // Each topic's, author's and section's feed too (contract/topics.ts, contract/authors.ts,
      // contract/site-index.ts): a key starting with ^ is a pattern.
      [...SERVER_PATHS, ...SITE_FILES, '^/((topics|authors)/)?[a-z0-9-]+/rss\\.xml$'].map(
        (path) => [path, serverUrl],
      ),
    ),
  },
}));
