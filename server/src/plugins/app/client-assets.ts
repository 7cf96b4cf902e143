import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { DomainError } from '../../domain-error.js';
import { errorBody, HttpError } from '../../http/errors.js';
import { DESK_API } from '../../../../contract/desk-api.js';
import { postPath } from '../../../../contract/posts.js';
import { previewPost } from '../../content/post-publishing.js';
import { SERVER_PATHS } from '../../../../contract/constants.js';
import {
  browserOnlyPages,
  paths,
  redirects,
  serverOwnPaths,
} from '../../../../contract/site-paths.js';
import { ARTWORK_PREFIX } from '../../content/site-content.js';
import { SitePages, type Page } from '../../site/site-pages.js';
import { differsForMembers, readerOf } from '../../content/site-data.js';
import { renderOgImage } from '../../site/og-image.js';
import { sitePath } from '../../http/site-path.js';
import { generateArtwork } from '../../content/generate-artwork.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const SHORT = 'public, max-age=3600';

/** Paths the server answers itself: an unknown one is a JSON 404, never the client's page. */
const isServerPath = (path: string) =>
  SERVER_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

export interface ClientAssetsOptions {
  /** The built client (dist/client): hashed assets, icons. */
  dir: string;
  /** The app built for Node (dist/ssr), which draws the pages. */
  ssrDir: string;
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

/** The old UI-kit demo's addresses and where they lead now, and the bare template's. */
const REDIRECTS = new Map<string, string>([
  [serverOwnPaths.indexHtml, '/'],
  ...redirects.map(({ from, to }): [string, string] => [from, to]),
]);
const BROWSER_ONLY = new Set<string>(browserOnlyPages);
/** Any address no page has: the not-found page. */
const NOT_A_PAGE = '/404';

/**
 * Serves the built client: each public page as HTML drawn from the published content (its full
 * text, its own head; server/src/site/site-pages.ts) with the right status, an unknown address as
 * the 404 page with a 404, the screens drawn only in the browser as the bare shell, old addresses
 * as 301s; hashed files under /assets/ and the artwork cached for a year, other files for an
 * hour, pages revalidated on every load.
 */
/** Why a post cannot be previewed yet, as the page the preview frame shows. */
function previewProblemPage(message: string): string {
  const text = message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Preview</title><body style="font:16px/1.5 system-ui,sans-serif;margin:2rem;color:#141414"><h1 style="font-size:1.25rem">Not ready to preview</h1><p>${text}</p><p>Fill in what is missing, then preview again.</p></body></html>`;
}

/** A path with its escapes undone (`/caf%C3%A9` → `/café`), as an import may record it. */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** A preview's form: a post's JSON (up to 200,000 characters of body), URL-encoded. */
const PREVIEW_BODY_LIMIT = 2 * 1024 * 1024;

export default fp(
  async function clientAssets(app: FastifyInstance, options: ClientAssetsOptions) {
    const built = existsSync(join(options.dir, 'index.html'));
    let pages: SitePages | null = null;
    app.addHook('onReady', async () => {
      pages = await SitePages.open(
        {
          clientDir: options.dir,
          ssrDir: options.ssrDir,
          siteUrl: options.siteUrl,
          siteName: options.siteName,
          paymentsEnabled: options.paymentsEnabled,
        },
        app.siteContent.current(),
      );
      if (!pages) {
        app.log.warn(`No build in ${options.dir}: run \`npm run build\` to serve the site.`);
      }
    });
    app.siteContent.onChange((content) => pages?.update(content));

    // The desk's preview of a post with its unsaved changes (a form posted into the desk's frame):
    // the page it would be, as a visitor or a member sees it, drawn now and saving nothing.
    await app.register(async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: PREVIEW_BODY_LIMIT },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      scope.post<{ Params: { id: string }; Body: Record<string, string> }>(
        `${DESK_API}/posts/:id/preview`,
        async (request, reply) => {
          await request.requireStaff();
          const id = /^[1-9][0-9]{0,8}$/.test(request.params.id) ? Number(request.params.id) : 0;
          const body = request.body as Record<string, unknown> | undefined;
          const as = body?.as === 'member' ? 'member' : 'public';
          let changes: unknown;
          try {
            changes = JSON.parse(typeof body?.post === 'string' ? body.post : '{}');
          } catch {
            changes = null;
          }
          if (!id || typeof changes !== 'object' || changes === null || Array.isArray(changes)) {
            throw new HttpError(
              400,
              'invalid_preview',
              'Send the post as JSON in the field "post".',
            );
          }
          if (!pages) throw new HttpError(503, 'not_built', 'The site is not built.');
          void reply
            .header('cache-control', 'no-store')
            .header('x-robots-tag', 'noindex')
            .type('text/html; charset=utf-8');
          try {
            // A draft is drawn whatever publishing still needs: the desk asks for those apart
            // (POST /api/desk/posts/:id/preview/warnings) and names them over the frame.
            const { row: post } = await previewPost(
              app.db.pool,
              id,
              changes as Record<string, unknown>,
            );
            const content = await app.siteContent.preview(post);
            const path = postPath(
              { kind: post.kind, slug: post.slug, category: post.fields.category },
              content.sectionSlugs,
            );
            let html = await pages.drawPreview(content, path, as);
            // Artwork the site does not serve yet (a new slug's) goes into the page itself.
            const served = app.siteContent.current().artwork;
            for (const [file, svg] of content.artwork) {
              if (served.has(file) || !html.includes(file)) continue;
              const inline = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
              html = html.replaceAll(`${ARTWORK_PREFIX}${file}`, () => inline);
            }
            return reply.send(html);
          } catch (error) {
            // What the post still lacks, on the page the writer is looking at.
            if (error instanceof DomainError) {
              return reply.code(error.status).send(previewProblemPage(error.message));
            }
            if (!(error instanceof HttpError)) throw error;
            return reply.code(error.statusCode).send(previewProblemPage(error.message));
          }
        },
      );
    });

    // Hero artwork, drawn from its seed: its name holds its hash, so it never changes.
    app.get(`${ARTWORK_PREFIX}:file`, async (request, reply) => {
      const { file } = request.params as { file: string };
      const svg = app.siteContent.current().artwork.get(file);
      if (!svg) return reply.code(404).send(errorBody('not_found', 'No such image.'));
      return reply.header('cache-control', IMMUTABLE).type('image/svg+xml').send(svg);
    });

    // Link previews, drawn when first asked for and kept until the content changes.
    let previews = new Map<string, Promise<Buffer>>();
    app.siteContent.onChange(() => {
      previews = new Map();
    });
    app.get('/og/*', async (request, reply) => {
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
    });

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
    async function sendPage(request: FastifyRequest, reply: FastifyReply, copies: Page) {
      const { status } = copies;
      const signedIn = copies.forMember || (await app.sessions.carriesSignedInToken(request));
      const page = signedIn ? copies.signedIn : copies.anonymous;
      void reply
        // A member's copy of a members-only article: for their browser alone.
        .header('cache-control', copies.forMember ? 'private, no-cache' : REVALIDATE)
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
      return reply.header('content-encoding', encoding).send(await page.compressed(encoding));
    }

    /**
     * A page, by its path as sent. `desk` says the router matched one of the desk's pages (the
     * staff-only prefix, however its path was spelled): `home` for the desk's first page.
     */
    async function answerPage(
      path: string,
      request: FastifyRequest,
      reply: FastifyReply,
      desk?: 'home' | 'page',
    ) {
      if (!pages) {
        if (path !== '/') return reply.code(404).send(errorBody('not_found', 'No such page.'));
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The site is not built: run `npm run build`.');
      }
      const redirect = REDIRECTS.get(path);
      if (redirect) return reply.redirect(sitePath(redirect), 301);
      if (path === serverOwnPaths.join) {
        // An offer's link (/join?offer=CODE): the plans, with the code, on the early-access page.
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        return reply.redirect(sitePath(`${paths.earlyAccess}${query}`), 302);
      }
      if (path.length > 1 && path.endsWith('/')) {
        // `/write/` where `/write` moved: straight to where it leads now, in one hop.
        const bare = path.replace(/\/+$/, '');
        return reply.redirect(sitePath(REDIRECTS.get(bare) ?? movedFrom(bare) ?? bare), 301);
      }
      if (desk) {
        // Staff get the desk's shell; staff whose address is not proven yet, the page asking them
        // to prove it; anyone else, the not-found page. Never cached or indexed.
        const staffShell = (await request.getStaff())
          ? pages.deskShell
          : desk === 'home' && (await request.isStaffAwaitingProof())
            ? pages.deskVerifyShell
            : null;
        if (!staffShell) return sendPage(request, reply, await pages.page(NOT_A_PAGE));
        return reply
          .code(200)
          .header('cache-control', 'no-store')
          .header('x-robots-tag', 'noindex')
          .type('text/html; charset=utf-8')
          .send(staffShell);
      }
      if (BROWSER_ONLY.has(path)) return sendPage(request, reply, pages.shell);
      const moved = movedFrom(path, request.url);
      if (moved) return reply.redirect(sitePath(moved), 301);
      const content = app.siteContent.current();
      if (path === paths.search) return answerSearch(request, reply);
      // Who reads matters only where members see more: only there is the session looked up.
      const reader = differsForMembers(content, path) ? await readerOf(request) : 'public';
      // The comments under its posts, kept until they change (site/page-comments.ts).
      const comments = await app.pageComments.forPage(content, path);
      return sendPage(request, reply, await pages.page(path, reader, comments));
    }

    /**
     * Where an old address leads now (301), if a post was there: a post whose slug or section
     * changed, or an imported one (its old platform's paths). A page the site draws there wins.
     * For the home page, WordPress's links by number (`/?p=1178`, `/?page_id=2`), the other
     * parameters ignored; any other query leaves the home page as it is.
     */
    function movedFrom(path: string, url?: string): string | undefined {
      const desk = options.staffOnlyPrefix;
      const inDesk = desk !== undefined && (path === desk || path.startsWith(`${desk}/`));
      if (!pages || inDesk || BROWSER_ONLY.has(path)) return undefined;
      const { moved } = app.siteContent.current();
      if (path === paths.home) {
        const query = new URLSearchParams(url?.split('?')[1] ?? '');
        for (const name of ['p', 'page_id']) {
          const id = query.get(name);
          if (id && /^[0-9]{1,12}$/.test(id)) {
            const to = moved.get(`/?${name}=${Number(id)}`);
            if (to) return to;
          }
        }
        return undefined;
      }
      if (pages.has(path)) return undefined;
      return moved.get(path) ?? moved.get(decodedPath(path));
    }

    /**
     * /search?q=: the results drawn into the page, so that the page works without scripts; a
     * query too long is the page with the search's message, answered 400. Without a query, the
     * page is drawn once like any other.
     */
    async function answerSearch(request: FastifyRequest, reply: FastifyReply) {
      if (!pages) return reply.code(503).send();
      const { q } = request.query as Record<string, unknown>;
      const raw = typeof q === 'string' ? q : Array.isArray(q) ? String(q[0] ?? '') : '';
      if (raw.trim() === '') return sendPage(request, reply, await pages.page(paths.search));
      let page: Page;
      try {
        const search = await app.siteSearch.find(raw);
        const address = `?${new URLSearchParams({ q: search.query }).toString()}`;
        page = await pages.drawWith(paths.search, address, { search }, 200);
      } catch (error) {
        if (!(error instanceof HttpError) || error.statusCode !== 400) throw error;
        // The query as sent: the page draws it in its box, for the reader to shorten.
        const address = `?${new URLSearchParams({ q: raw }).toString()}`;
        page = await pages.drawWith(
          paths.search,
          address,
          { search: { query: raw, results: [], error: error.message } },
          400,
        );
      }
      return sendPage(request, reply, page);
    }

    app.get('/', (request, reply) => answerPage('/', request, reply));

    /** A page for a GET of a path that looks like one, else the JSON 404 of an unknown address. */
    function answerPath(request: FastifyRequest, reply: FastifyReply, desk?: 'home' | 'page') {
      const path = request.url.split('?')[0] ?? '/';
      const wantsPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !isServerPath(path) &&
        (!/\.[a-z0-9]+$/i.test(path) || path === '/index.html');
      if (wantsPage) return answerPage(path, request, reply, desk);
      return reply
        .code(404)
        .send(errorBody('not_found', `No such resource: ${request.method} ${path}`));
    }

    if (options.staffOnlyPrefix !== undefined) {
      // The desk's pages are routes, not a test of the URL's text: the router decodes the path
      // before it matches, so `/%64esk` is the desk too.
      app.get(options.staffOnlyPrefix, (request, reply) => answerPath(request, reply, 'home'));
      app.get(`${options.staffOnlyPrefix}/*`, (request, reply) =>
        answerPath(request, reply, 'page'),
      );
    }
    app.setNotFoundHandler((request, reply) => answerPath(request, reply));
  },
  { name: 'client-assets', dependencies: ['sessions', 'site-content', 'search', 'page-comments'] },
);
