import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { contentPlugin } from './client/build/vite-plugin-content.js';
import { siteIconsPlugin } from './client/build/vite-plugin-site-icons.js';
import { SERVER_PATHS } from './contract/constants.js';
import { SITE_FILES, SITE_INDEX_FILE } from './contract/site-index.js';

const serverUrl = process.env.COHORT_SERVER_URL ?? 'http://127.0.0.1:3000';
const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig(({ command }) => ({
  root: fromRoot('./client'),
  plugins: [
    react(),
    contentPlugin({
      contentDir: fromRoot('./content'),
      // Beside dist/client, not in it: the server reads it, nginx's static root never has it.
      siteIndex: {
        file: fromRoot(`./${SITE_INDEX_FILE}`),
        cssFile: fromRoot('./client/src/styles.css'),
      },
    }),
    siteIconsPlugin({ svgFile: fromRoot('./client/public/favicon.svg') }),
  ],
  resolve: {
    // react-router's package exports point every bundler at its development build
    // (remix-run/react-router#12532); production builds take the production files it also ships.
    alias:
      command === 'build'
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
        : [],
  },
  build: {
    outDir: fromRoot('./dist/client'),
    emptyOutDir: true,
    // Maps are written for debugging but not referenced from the served files.
    sourcemap: 'hidden',
    // Browsers without native modulepreload (Safari before 17) still load every module; the
    // polyfill would only speed them up, at a cost to every other browser's first load.
    modulePreload: { polyfill: false },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries([...SERVER_PATHS, ...SITE_FILES].map((path) => [path, serverUrl])),
  },
}));
