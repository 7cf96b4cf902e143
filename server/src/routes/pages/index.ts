import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_PATHS } from '../../../../contract/constants.js';
import { matchScreen } from '../../../../contract/screen-match.js';
import { SCREENS, type Screen } from '../../../../contract/screens.js';
import { paths, redirects, serverOwnPaths } from '../../../../contract/site-paths.js';
import { VISITOR } from '../../../../contract/reading.js';
import { readerOf } from '../../content/readers.js';
import { rulesOnScreen } from '../../content/site-data.js';
import { errorBody, HttpError } from '../../http/errors.js';
import { sitePath } from '../../http/site-path.js';
import type { Page } from '../../site/site-pages.js';
import { findOldPlatformAddress } from '../../site/old-platform-addresses.js';
import { sendPage } from './send-page.js';

/** The old UI-kit demo's addresses and where they lead now, and the bare template's. */
const REDIRECTS = new Map<string, string>([
  [serverOwnPaths.indexHtml, '/'],
  ...redirects.map(({ from, to }): [string, string] => [from, to]),
]);
/** Any address no page has: the not-found page. */
const NOT_A_PAGE = '/404';
/** An old platform's address whose tag, author or month is not here: the not-found page at once. */
const NOWHERE = Symbol('nowhere');
/** The screens only staff get (the desk), by the path their pages are under (`/desk`). */
const STAFF_SCREENS = SCREENS.filter((screen: Screen) => screen.access === 'staff').map(
  (screen: Screen) => screen.path.replace(/\/\*$/, ''),
);

/** Paths the server answers itself: an unknown one is a JSON 404, never the client's page. */
const isServerPath = (path: string) =>
  SERVER_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/** A path with its escapes undone (`/caf%C3%A9` → `/café`), as an import may record it. */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The reader's pages: a GET of any address no other route has is the screen of the table at its
 * path (contract/screens.ts), drawn from the published content with its full text and its own
 * head (site/site-pages.ts) and the right status; a screen drawn only in the browser is the bare
 * shell, the desk's the shell for staff; an unknown address is the 404 page with a 404, an old one
 * a 301. Anything else no route has (another method, a server path, a file) is the JSON 404.
 * Pages are revalidated on every load.
 */
const pageRoutes: FastifyPluginAsync = async (app) => {
  /**
   * A page, by its path as sent. `desk` says the router matched a page only staff get (however
   * its path was spelled): `home` for the desk's first page.
   */
  async function answerPage(
    path: string,
    request: FastifyRequest,
    reply: FastifyReply,
    desk?: 'home' | 'page',
  ) {
    const pages = app.sitePages.current();
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
      const ours = REDIRECTS.get(bare) ?? movedFrom(bare);
      const publishers = ours ? null : publisherRedirect(path, request.url);
      if (publishers) return reply.redirect(publishers.location, publishers.status);
      const platform = ours ? null : oldPlatformRedirect(bare, request.url);
      if (platform === NOWHERE) return sendPage(request, reply, await pages.page(NOT_A_PAGE));
      return reply.redirect(platform ?? sitePath(ours ?? bare), 301);
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
    const content = app.siteContent.current();
    const screen = matchScreen(path, content.sectionSlugs, content.specialSlugs)?.screen;
    if (screen && screen.data === null && !screen.access) {
      return sendPage(request, reply, pages.shell);
    }
    const moved = movedFrom(path, request.url);
    if (moved) return reply.redirect(sitePath(moved), 301);
    const publishers = publisherRedirect(path, request.url);
    if (publishers) return reply.redirect(publishers.location, publishers.status);
    const platform = oldPlatformRedirect(path, request.url);
    if (platform !== null && platform !== NOWHERE) return reply.redirect(platform, 301);
    if (screen?.data === 'search') return answerSearch(request, reply);
    // Who reads matters only where a restricted post is shown: only there is the session looked up.
    const reader = rulesOnScreen(content, path).length > 0 ? await readerOf(request) : VISITOR;
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
    const pages = app.sitePages.current();
    if (!pages) return undefined;
    const inStaffPages = STAFF_SCREENS.some(
      (prefix) => path === prefix || path.startsWith(`${prefix}/`),
    );
    const { moved, sectionSlugs, specialSlugs } = app.siteContent.current();
    // A screen's own address (a policy or topic page's text, even one not written yet) is never
    // another post's old one.
    const data = matchScreen(path, sectionSlugs, specialSlugs)?.screen.data;
    if (inStaffPages || data === null || data === 'text') return undefined;
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
   * Where one of the publisher's own redirects (the desk's Redirects, a Ghost import's
   * redirects.yaml) sends an address that would answer 404: a page or post there, a screen of the
   * site's own, a post taken down or moved, all win over it. `path` as sent, its slash kept, since
   * Ghost's rules read it either way.
   */
  function publisherRedirect(path: string, url: string) {
    const pages = app.sitePages.current();
    if (!pages) return null;
    const bare = path.length > 1 ? path.replace(/\/+$/, '') : path;
    const { gone, sectionSlugs, specialSlugs } = app.siteContent.current();
    const data = matchScreen(bare, sectionSlugs, specialSlugs)?.screen.data;
    const inStaffPages = STAFF_SCREENS.some(
      (prefix) => bare === prefix || bare.startsWith(`${prefix}/`),
    );
    if (inStaffPages || data === null || data === 'text' || data === 'search') return null;
    if (pages.has(bare) || gone.has(bare)) return null;
    const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
    return app.customRedirects.find(path, query);
  }

  /**
   * Where an old platform's feed or archive address (Ghost's `/rss/`, WordPress's `/2013/01/`…)
   * leads here, with the query where a page is the target (site/old-platform-addresses.ts);
   * NOWHERE for one whose tag, author or month the site does not have (the 404 page, without a
   * redirect to it first); null where the site answers the address itself (a page, a post taken
   * down) or it is none. After the publisher's own redirects: what they set wins.
   */
  function oldPlatformRedirect(path: string, url: string): string | typeof NOWHERE | null {
    const pages = app.sitePages.current();
    const content = app.siteContent.current();
    if (!pages || content.gone.has(path)) return null;
    const found = findOldPlatformAddress(path, { content, isPage: (each) => pages.has(each) });
    if (!found) return null;
    if (found.to === null) return NOWHERE;
    const query = found.keepQuery && url.includes('?') ? url.slice(url.indexOf('?')) : '';
    return sitePath(`${found.to}${query}`);
  }

  /**
   * /search?q=: the results drawn into the page, so that the page works without scripts; a
   * query too long is the page with the search's message, answered 400. Without a query, the
   * page is drawn once like any other.
   */
  async function answerSearch(request: FastifyRequest, reply: FastifyReply) {
    const pages = app.sitePages.current();
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

  app.get('/', { config: { access: 'anyone', changesState: false } }, (request, reply) =>
    answerPage('/', request, reply),
  );
  for (const prefix of STAFF_SCREENS) {
    // Routes, not a test of the URL's text: the router decodes the path before it matches, so
    // `/%64esk` is the desk too.
    app.get(prefix, { config: { access: 'anyone', changesState: false } }, (request, reply) =>
      answerPath(request, reply, 'home'),
    );
    app.get(
      `${prefix}/*`,
      { config: { access: 'anyone', changesState: false } },
      (request, reply) => answerPath(request, reply, 'page'),
    );
  }
  // Every address no route has: a page, or the JSON 404.
  app.setNotFoundHandler((request, reply) => answerPath(request, reply));
};

export default pageRoutes;
