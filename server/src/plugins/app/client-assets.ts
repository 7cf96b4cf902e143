import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { Value } from 'typebox/value';
import { errorBody } from '../../http/errors.js';
import { SERVER_PATHS } from '../../../../contract/constants.js';
import {
  PAGES_ROUTES_FILE,
  fillPrerenderedPage,
  PrerenderedRoutesSchema,
} from '../../../../contract/prerendered.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const SHORT = 'public, max-age=3600';

/** Paths the server answers itself: an unknown one is a JSON 404, never the client's page. */
const isServerPath = (path: string) =>
  SERVER_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

export interface ClientAssetsOptions {
  /** The built client (dist/client): hashed assets, icons, preview images. */
  dir: string;
  /** The prerendered pages (dist/pages, client/build/prerender.ts). */
  pagesDir: string;
  /** Put in place of the build's placeholder origin in every page. */
  siteUrl: string;
  /** Put in place of the build's placeholder name in every page (SITE_NAME). */
  siteName: string;
  /**
   * Whether Stripe keys are set: pages say so on <html> (`data-payments="off"`), so their CSS can
   * leave no room for a payment form before any script runs.
   */
  paymentsEnabled: boolean;
  /**
   * Pages under this path (the desk) are the bare shell for staff (`request.getStaff()`), never
   * cached or indexed; to anyone else, exactly what an unknown address gets.
   */
  staffOnlyPrefix?: string;
}

/** A page's HTML, compressed once each way, and its validator. */
interface PageCopy {
  html: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
}

/**
 * A page as anonymous readers get it, and as signed-in ones do: marked `<html data-signed-in>`,
 * so that its CSS shows "Account" in the navbar from the first paint, before the app has asked
 * who the reader is (styles.css, `.navbar__actions[data-session]`).
 */
interface Page {
  anonymous: PageCopy;
  signedIn: PageCopy;
}

type ContentEncoding = 'br' | 'gzip' | 'identity';

/**
 * The encoding to send for an `Accept-Encoding` header: brotli, then gzip, then none, skipping
 * any the client refuses with `q=0`.
 */
export function preferredEncoding(acceptEncoding: string | undefined): ContentEncoding {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
}

/** Every page's HTML, with this deployment's address in its absolute links and its name. */
interface Pages {
  byPath: Map<string, Page>;
  notFound: Page;
  shell: Page;
  /** The shell marked for the desk (`<html data-desk>`): what staff get at /desk. */
  deskShell: Buffer;
  /** The shell marked `<html data-desk="verify-address">`: staff whose address is not proven. */
  deskVerifyShell: Buffer;
  browserOnly: Set<string>;
  redirects: Map<string, string>;
}

function readPages(options: ClientAssetsOptions): Pages | null {
  const routesFile = join(options.pagesDir, PAGES_ROUTES_FILE);
  if (!existsSync(routesFile)) return null;
  const routes = Value.Parse(PrerenderedRoutesSchema, JSON.parse(readFileSync(routesFile, 'utf8')));
  const copy = (text: string): PageCopy => {
    const html = Buffer.from(text);
    const hash = createHash('sha256').update(html).digest('base64url').slice(0, 22);
    // Once at start, for every request after: brotli's quality 5 takes about 2 ms a page (11 would
    // take 40) for a copy within 10 % of its best.
    return {
      html,
      gzip: gzipSync(html, { level: 9 }),
      brotli: brotliCompressSync(html, {
        params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 },
      }),
      etag: `"${hash}"`,
    };
  };
  const read = (file: string): Page => {
    let text = fillPrerenderedPage(readFileSync(join(options.pagesDir, file), 'utf8'), {
      url: options.siteUrl,
      name: options.siteName,
    });
    if (!options.paymentsEnabled) text = text.replace(/<html\b/, '<html data-payments="off"');
    return {
      anonymous: copy(text),
      signedIn: copy(text.replace(/<html\b/, '<html data-signed-in')),
    };
  };
  const shell = read(routes.shell);
  return {
    byPath: new Map(routes.pages.map(({ path, file }) => [path, read(file)])),
    notFound: read(routes.notFound),
    shell,
    deskShell: Buffer.from(shell.signedIn.html.toString().replace(/<html\b/, '<html data-desk')),
    deskVerifyShell: Buffer.from(
      shell.signedIn.html.toString().replace(/<html\b/, '<html data-desk="verify-address"'),
    ),
    browserOnly: new Set(routes.browserOnly),
    redirects: new Map([
      ['/index.html', '/'],
      ...routes.redirects.map(({ from, to }): [string, string] => [from, to]),
    ]),
  };
}

/**
 * Serves the built client: each public page as its prerendered HTML (its full text, its own head)
 * with the right status, an unknown address as the 404 page with a 404, the screens drawn only in
 * the browser as the bare shell, old addresses as 301s; hashed files under /assets/ cached for a
 * year, other files for an hour, pages revalidated on every load.
 */
export default fp(
  async function clientAssets(app: FastifyInstance, options: ClientAssetsOptions) {
    const built = existsSync(join(options.dir, 'index.html'));
    const pages = built ? readPages(options) : null;
    if (built) {
      await app.register(fastifyStatic, {
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
    }
    if (!pages) {
      app.log.warn(
        `No prerendered pages in ${options.pagesDir}: run \`npm run build\` to serve the site.`,
      );
    }

    async function sendPage(
      request: FastifyRequest,
      reply: FastifyReply,
      status: number,
      copies: Page,
    ) {
      const signedIn = await app.sessions.carriesSignedInToken(request);
      const page = signedIn ? copies.signedIn : copies.anonymous;
      void reply
        .header('cache-control', REVALIDATE)
        .header('etag', page.etag)
        .header('vary', 'Accept-Encoding, Cookie');
      // nginx weakens the validator when it gzips (W/"…"): the same page either way.
      const known = (request.headers['if-none-match'] ?? '')
        .split(',')
        .map((tag) => tag.trim().replace(/^W\//, ''));
      if (status === 200 && known.includes(page.etag)) {
        return reply.code(304).send();
      }
      void reply.code(status).type('text/html; charset=utf-8');
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      if (encoding === 'identity') return reply.send(page.html);
      return reply
        .header('content-encoding', encoding)
        .send(encoding === 'br' ? page.brotli : page.gzip);
    }

    const isStaffOnly = (path: string) =>
      options.staffOnlyPrefix !== undefined &&
      (path === options.staffOnlyPrefix || path.startsWith(`${options.staffOnlyPrefix}/`));

    async function answerPage(path: string, request: FastifyRequest, reply: FastifyReply) {
      if (!pages) {
        if (path !== '/') return reply.code(404).send(errorBody('not_found', 'No such page.'));
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The site is not built: run `npm run build`.');
      }
      const redirect = pages.redirects.get(path);
      if (redirect) return reply.redirect(redirect, 301);
      if (path.length > 1 && path.endsWith('/')) {
        return reply.redirect(path.replace(/\/+$/, '') || '/', 301);
      }
      if (isStaffOnly(path)) {
        // Staff get the desk's shell; staff whose address is not proven yet, the page asking them
        // to prove it; anyone else, the not-found page. Never cached or indexed.
        const staffShell = (await request.getStaff())
          ? pages.deskShell
          : path === options.staffOnlyPrefix && (await request.isStaffAwaitingProof())
            ? pages.deskVerifyShell
            : null;
        if (!staffShell) return sendPage(request, reply, 404, pages.notFound);
        return reply
          .code(200)
          .header('cache-control', 'no-store')
          .header('x-robots-tag', 'noindex')
          .type('text/html; charset=utf-8')
          .send(staffShell);
      }
      const page = pages.byPath.get(path);
      if (page) return sendPage(request, reply, 200, page);
      if (pages.browserOnly.has(path)) return sendPage(request, reply, 200, pages.shell);
      return sendPage(request, reply, 404, pages.notFound);
    }

    app.get('/', (request, reply) => answerPage('/', request, reply));

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0] ?? '/';
      const wantsPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !isServerPath(path) &&
        (!/\.[a-z0-9]+$/i.test(path) || path === '/index.html');
      if (wantsPage) return answerPage(path, request, reply);
      return reply
        .code(404)
        .send(errorBody('not_found', `No such resource: ${request.method} ${path}`));
    });
  },
  { name: 'client-assets', dependencies: ['sessions'] },
);
