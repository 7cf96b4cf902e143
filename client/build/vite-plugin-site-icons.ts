import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';
import { createSiteIcons, type IconFile } from './site-icons.js';

const ICON_TYPES: Record<string, string> = { '.ico': 'image/x-icon', '.png': 'image/png' };

/**
 * Draws favicon.ico, apple-touch-icon.png and the manifest's PNGs from the SVG favicon: emitted
 * next to index.html by a build, served by the dev server.
 */
export function siteIconsPlugin(options: { svgFile: string }): Plugin {
  let pending: Promise<IconFile[]> | undefined;
  const loadIcons = () =>
    (pending ??= readFile(options.svgFile, 'utf8').then((svg) => createSiteIcons(svg)));

  return {
    name: 'cohort-site-icons',

    buildStart() {
      pending = undefined;
      this.addWatchFile(options.svgFile);
    },

    async generateBundle() {
      for (const { fileName, source } of await loadIcons()) {
        this.emitFile({ type: 'asset', fileName, source });
      }
    },

    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const fileName = request.url?.split('?')[0]?.slice(1);
        loadIcons()
          .then((icons) => {
            const icon = icons.find((item) => item.fileName === fileName);
            if (!icon) return next();
            response.setHeader('content-type', ICON_TYPES[icon.fileName.slice(-4)] ?? '');
            response.end(icon.source);
          })
          .catch(next);
      });
    },
  };
}
