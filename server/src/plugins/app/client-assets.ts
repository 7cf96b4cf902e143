import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { errorBody } from '../../http/errors.js';
import { declareForAll } from './route-access.js';
import { ARTWORK_PREFIX } from '../../content/site-content.js';
import type { SitePages } from '../../site/site-pages.js';
import { renderOgImage } from '../../site/og-image.js';
import { generateArtwork } from '../../content/generate-artwork.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=3600';

export interface ClientAssetsOptions {
  /** The built client (dist/client): hashed assets, icons. */
  dir: string;
}

/**
 * Serves the built client's files and the images drawn from the content: hashed files under
 * /assets/ and the artwork cached for a year, other files and link previews for an hour. The
 * pages are routes of their own (routes/pages).
 */
export default fp(
  async function clientAssets(app: FastifyInstance, options: ClientAssetsOptions) {
    const built = existsSync(join(options.dir, 'index.html'));
    // The pages (site-pages-plugin.ts, opened when the app is ready): the link previews draw from
    // them.
    let pages: SitePages | null = null;
    app.addHook('onReady', async () => {
      pages = app.sitePages.current();
    });

    // Hero artwork, drawn from its seed: its name holds its hash, so it never changes.
    app.get(
      `${ARTWORK_PREFIX}:file`,
      { config: { access: 'anyone', changesState: false } },
      async (request, reply) => {
        const { file } = request.params as { file: string };
        const svg = app.siteContent.current().artwork.get(file);
        if (!svg) return reply.code(404).send(errorBody('not_found', 'No such image.'));
        return reply.header('cache-control', IMMUTABLE).type('image/svg+xml').send(svg);
      },
    );

    // Link previews, drawn when first asked for and kept until the content changes.
    let previews = new Map<string, Promise<Buffer>>();
    app.siteContent.onChange(() => {
      previews = new Map();
    });
    app.get(
      '/og/*',
      { config: { access: 'anyone', changesState: false } },
      async (request, reply) => {
        const file = `og/${(request.params as { '*': string })['*']}`;
        const preview = pages?.preview(file);
        if (!preview) return reply.code(404).send(errorBody('not_found', 'No such image.'));
        let png = previews.get(file);
        if (!png) {
          png = renderOgImage({
            artworkSvg: generateArtwork(preview.artworkSeed, preview.theme),
            eyebrow: preview.eyebrow,
            title: preview.title,
          });
          previews.set(file, png);
          // A failed drawing is tried again at the next request, not kept.
          png.catch(() => previews.delete(file));
        }
        return reply
          .header('cache-control', SHORT)
          .type('image/png')
          .send(await png);
      },
    );

    // The built files: anyone reads them (@fastify/static adds a route per file, without a say).
    if (built) {
      await app.register(async (files) => {
        files.addHook('onRoute', declareForAll({ access: 'anyone', changesState: false }));
        await files.register(fastifyStatic, {
          root: options.dir,
          wildcard: false,
          index: false,
          // The bare template: its address leads to the home page instead.
          allowedPath: (path) => path !== '/index.html',
          // The build's .br and .gz beside each file (scripts/precompress.mjs), sent as they are.
          preCompressed: true,
          cacheControl: false,
          setHeaders(res, path) {
            res.header('cache-control', path.includes('/assets/') ? IMMUTABLE : SHORT);
          },
        });
      });
    }
  },
  { name: 'client-assets', dependencies: ['sessions', 'site-content', 'site-pages'] },
);
