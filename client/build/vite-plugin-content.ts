import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import {
  CONTENT_MODULE_PREFIX,
  createContentBundle,
  type ContentBundle,
} from './content-modules.js';
import { ContentValidationError } from './content-issues.js';
import { loadContent, type LoadedContent } from './load-content.js';
import { createNewslettersFile } from './newsletters-file.js';
import { createSiteIndex } from './site-index.js';

const RESOLVED_PREFIX = `\0${CONTENT_MODULE_PREFIX}`;

interface Loaded {
  content: LoadedContent;
  bundle: ContentBundle;
}

/**
 * Bundles content/ into the client. Every build reads and validates all files first and fails with
 * `file: field: message` lines when one is wrong. The client imports `virtual:content/<name>`
 * modules (see content-modules.d.ts); hero artwork is emitted as files under assets/art/.
 * With `siteIndex`, a build also writes what the server needs for the sitemap, feeds and manifest
 * (client/build/site-index.ts) to `siteIndex.file`, outside the client's public files.
 */
export function contentPlugin(options: {
  contentDir: string;
  siteIndex?: { file: string; cssFile: string; newslettersFile: string };
}): Plugin {
  let base = '/';
  let pending: Promise<Loaded> | undefined;
  let watchedFiles: string[] = [];

  const loadBundle = () =>
    (pending ??= loadContent(options.contentDir).then((content) => {
      watchedFiles = content.files;
      return { content, bundle: createContentBundle(content, base) };
    }));

  async function readBundle(fail: (message: string) => never): Promise<Loaded> {
    try {
      return await loadBundle();
    } catch (error) {
      pending = undefined;
      if (error instanceof ContentValidationError) fail(error.message);
      throw error;
    }
  }

  return {
    name: 'cohort-content',

    configResolved(config) {
      base = config.base;
    },

    async buildStart() {
      pending = undefined;
      await readBundle((message) => this.error(message));
      for (const file of watchedFiles) this.addWatchFile(file);
    },

    resolveId(id) {
      return id.startsWith(CONTENT_MODULE_PREFIX) ? `\0${id}` : undefined;
    },

    async load(id) {
      if (!id.startsWith(RESOLVED_PREFIX)) return undefined;
      const { bundle } = await readBundle((message) => this.error(message));
      const source = bundle.modules.get(id.slice(RESOLVED_PREFIX.length));
      if (source === undefined) this.error(`There is no content module "${id.slice(1)}".`);
      return source;
    },

    async generateBundle() {
      const { bundle } = await readBundle((message) => this.error(message));
      for (const { fileName, svg } of bundle.artwork) {
        this.emitFile({ type: 'asset', fileName, source: svg });
      }
    },

    async writeBundle() {
      if (!options.siteIndex) return;
      const { content } = await readBundle((message) => this.error(message));
      const { file, cssFile, newslettersFile } = options.siteIndex;
      const index = createSiteIndex(content, await readFile(cssFile, 'utf8'));
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, `${JSON.stringify(index, null, 2)}\n`);
      // Every issue with its body, members-only ones too: for the server, never for the browser.
      await writeFile(newslettersFile, `${JSON.stringify(createNewslettersFile(content))}\n`);
    },

    configureServer(server) {
      server.watcher.add(options.contentDir);
      server.watcher.on('all', (_event, file) => {
        if (file.startsWith(options.contentDir)) reloadContent(server);
      });
      server.middlewares.use((request, response, next) => {
        const path = request.url?.split('?')[0];
        if (!path?.startsWith(`${base}assets/art/`)) return next();
        loadBundle()
          .then(({ bundle: { artwork } }) => {
            const file = artwork.find((item) => item.url === path);
            if (!file) return next();
            response.setHeader('content-type', 'image/svg+xml');
            response.end(file.svg);
          })
          .catch(next);
      });
    },
  };

  function reloadContent(server: ViteDevServer) {
    pending = undefined;
    for (const module of server.moduleGraph.idToModuleMap.values()) {
      if (module.id?.startsWith(RESOLVED_PREFIX)) server.moduleGraph.invalidateModule(module);
    }
    server.ws.send({ type: 'full-reload' });
  }
}
