import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { fillPrerenderedPage, type PageHead } from '../../../contract/prerendered.js';
import {
  SITE_DATA_ELEMENT_ID,
  SITE_NAVIGATION_ELEMENT_ID,
  SITE_SETTINGS_ELEMENT_ID,
  type SiteData,
} from '../../../contract/site-data.js';
import type { SiteIndex } from '../../../contract/site-index.js';
import type { SiteSettings } from '../../../contract/site-settings.js';
import type { SiteContent } from '../content/site-content.js';
import type { PageCommentsData } from './page-comments.js';
import { readerKey, VISITOR, type Reader } from '../../../contract/reading.js';
import { screenReader, siteDataFor } from '../content/site-data.js';
import {
  composePage,
  describePage,
  headTags,
  jsonForScript,
  type Css,
  type PreviewImage,
} from './page-head.js';
import { applyLook, markDescription } from './site-look.js';

/** The app built for Node (dist/ssr/entry-server.js): one page as HTML from its content. */
type RenderPage = (path: string, data: SiteData) => Promise<{ html: string; head: PageHead }>;

/** A page's HTML and its validator, compressed each way when a reader first accepts that way. */
export interface PageCopy {
  html: Buffer;
  etag: string;
  compressed(encoding: 'br' | 'gzip'): Promise<Buffer>;
}

/**
 * A page as anonymous readers get it, and as signed-in ones do: marked `<html data-signed-in>`,
 * so that its CSS shows "Account" in the navbar from the first paint, before the app has asked
 * who the reader is (styles.css, `.navbar__actions[data-session]`).
 */
export interface Page {
  status: number;
  anonymous: PageCopy;
  signedIn: PageCopy;
  /**
   * Drawn for a reader who reads more of it than a visitor (a restricted post whole): never kept
   * by a shared cache.
   */
  forReader?: boolean;
}

export interface SitePagesOptions {
  /** The built client (dist/client): index.html and the stylesheet. */
  clientDir: string;
  /** The app built for Node (dist/ssr). */
  ssrDir: string;
  siteUrl: string;
  /**
   * Whether Stripe keys are set: pages say so on <html> (`data-payments="off"`), so their CSS can
   * leave no room for a payment form before any script runs.
   */
  paymentsEnabled: boolean;
}

/** What the pages are drawn from: the published content, and what it tells of the whole site. */
interface Generation {
  content: SiteContent;
  index: SiteIndex;
  /** The public pages by path (the sitemap's). */
  known: Set<string>;
  /** The bare shell with this content's navigation. */
  shell: Page;
  /** The desk's shell, and the one asking staff to prove their address first. */
  deskShell: Buffer;
  deskVerifyShell: Buffer;
  /**
   * Each page drawn once, when first asked for, until the content changes, or the comments it
   * shows do (`comments`: the key of those it was drawn with, site/page-comments.ts).
   */
  drawn: Map<string, { comments: string; page: Promise<Page> }>;
  previews: Map<string, PreviewImage>;
}

/**
 * Every public page drawn from the published content, at run time: the app's server build renders
 * the page with its content, which goes into the page as JSON for the browser to hydrate from, and
 * the head gets the page's own title, description, canonical link, Open Graph tags and JSON-LD
 * (page-head.ts). A page is drawn when first asked for and kept, compressed, until the content
 * changes (`update`); then every page is drawn again as it is asked for, so a change shows
 * everywhere it appears (the lists, the home page, the feeds) at once.
 */
export class SitePages {
  private generation: Generation;

  private constructor(
    private readonly options: SitePagesOptions,
    private readonly template: string,
    private readonly css: Css,
    private readonly renderPage: RenderPage,
    content: SiteContent,
  ) {
    this.generation = this.generationOf(content);
  }

  /** The pages, or null when the client is not built (`npm run build`). */
  static async open(options: SitePagesOptions, content: SiteContent): Promise<SitePages | null> {
    const templateFile = join(options.clientDir, 'index.html');
    const ssrEntry = join(options.ssrDir, 'entry-server.js');
    if (!existsSync(templateFile) || !existsSync(ssrEntry)) return null;
    const template = markDescription(await readFile(templateFile, 'utf8'));
    const css = await readStylesheet(options.clientDir, template);
    const { renderPage } = (await import(pathToFileURL(ssrEntry).href)) as {
      renderPage: RenderPage;
    };
    return new SitePages(options, template, css, renderPage, content);
  }

  /** Draw every page from this content from now on. */
  update(content: SiteContent) {
    this.generation = this.generationOf(content);
  }

  get content(): SiteContent {
    return this.generation.content;
  }

  get index(): SiteIndex {
    return this.generation.index;
  }

  /**
   * The bare shell of the screens drawn only in the browser (sign-in, the account), carrying the
   * navigation for their navbar and footer.
   */
  get shell(): Page {
    return this.generation.shell;
  }

  /** The desk's shell, for staff. */
  get deskShell(): Buffer {
    return this.generation.deskShell;
  }

  /** The shell asking staff to prove their address before the desk opens. */
  get deskVerifyShell(): Buffer {
    return this.generation.deskVerifyShell;
  }

  /** Whether `path` is one of the site's public pages (the sitemap's). */
  has(path: string): boolean {
    return this.generation.known.has(path);
  }

  /** What the screen at `path` draws for this reader (GET /api/site-data). */
  siteData(path: string, reader: Reader = VISITOR): SiteData {
    return siteDataFor(this.generation.content, path, reader);
  }

  /** A page's link preview, by its file (`og/articles/<slug>.png`), if a page has it. */
  preview(file: string): PreviewImage | undefined {
    return this.generation.previews.get(file);
  }

  /**
   * The page at `path` as this reader gets it, drawn now or earlier from the same content and the
   * same comments: kept once per kind of reader (`readerKey`), and a reader's own only where they
   * read more than a visitor (a restricted post they may read whole: site-data.ts screenReader).
   */
  page(
    path: string,
    reader: Reader = VISITOR,
    comments: PageCommentsData | null = null,
  ): Promise<Page> {
    const generation = this.generation;
    const { content } = generation;
    const drawnFor = screenReader(content, path, reader);
    const draw: { key: string; path: string; reader: Reader; status?: number; data?: SiteData } =
      generation.known.has(path)
        ? isVisitor(drawnFor)
          ? { key: path, path, reader: VISITOR }
          : { key: `${readerKey(drawnFor)} ${path}`, path, reader: drawnFor }
        : content.gone.has(path)
          ? // A post taken down: the not-found page saying so, answered 410 Gone.
            { key: GONE, path: NOT_FOUND, reader: VISITOR, status: 410, data: { removed: true } }
          : { key: NOT_FOUND, path: NOT_FOUND, reader: VISITOR };
    // Only the page at the path itself shows its posts' comments (not the not-found pages).
    const shown = draw.path === path && comments ? comments : null;
    const drawn = generation.drawn.get(draw.key);
    if (drawn && drawn.comments === (shown?.key ?? '')) return drawn.page;
    const data =
      draw.data ??
      (shown
        ? { ...siteDataFor(content, draw.path, draw.reader), comments: shown.comments }
        : undefined);
    const page = this.draw(generation, draw.path, draw.reader, draw.status, data);
    const entry = { comments: shown?.key ?? '', page };
    generation.drawn.set(draw.key, entry);
    // A failure is not kept: the next request tries again.
    page.catch(() => {
      if (generation.drawn.get(draw.key) === entry) generation.drawn.delete(draw.key);
    });
    return page;
  }

  /**
   * A page drawn from other content than the site's (the desk's preview of a post), for this
   * reader, as static HTML: its scripts are left out, so nothing in it asks the server for the
   * published version, and what it shows is what was drawn.
   */
  async drawPreview(content: SiteContent, path: string, reader: Reader): Promise<string> {
    const data = {
      navigation: content.navigation,
      settings: content.settings,
      ...siteDataFor(content, path, reader),
    };
    const drawn = await this.renderPage(path, data);
    const head = withTagline(path, drawn.head, content.settings);
    const { tags } = headTags(path, head, content.index, content.settings);
    const page = composePage(this.template, drawn.html, head, tags, this.css)
      .replace(/<script\b[^>]*type="module"[^>]*><\/script>\s*/g, '')
      .replace(/<link\b[^>]*rel="modulepreload"[^>]*>\s*/g, '');
    const filled = fillPrerenderedPage(applyLook(page, content.settings), {
      url: this.options.siteUrl,
      name: content.settings.title,
    });
    return isVisitor(reader) ? filled : filled.replace(/<html\b/, '<html data-signed-in');
  }

  /**
   * A page whose content depends on its query (`search`: the search page's results, in `data`):
   * drawn for this request alone, never kept.
   */
  drawWith(path: string, search: string, data: SiteData, status: number): Promise<Page> {
    const generation = this.generation;
    return this.draw(
      generation,
      path,
      VISITOR,
      status,
      { ...siteDataFor(generation.content, path), ...data },
      `${path}${search}`,
    );
  }

  private async draw(
    generation: Generation,
    path: string,
    reader: Reader,
    status?: number,
    screen: SiteData = siteDataFor(generation.content, path, reader),
    /** The address the app draws (with its query): the path's own by default. */
    address = path,
  ): Promise<Page> {
    // Every page draws the navbar and footer from the navigation, whatever its screen's data.
    const data: SiteData = {
      navigation: generation.content.navigation,
      settings: generation.content.settings,
      ...screen,
    };
    const { settings } = generation.content;
    const drawn = await this.renderPage(address, data);
    const head = withTagline(path, drawn.head, settings);
    const { tags } = headTags(path === NOT_FOUND ? '/404' : path, head, generation.index, settings);
    const page = composePage(this.template, drawn.html, head, tags, this.css).replace(
      '<div id="root">',
      () =>
        `<script type="application/json" id="${SITE_DATA_ELEMENT_ID}">${jsonForScript(data)}</script>\n    <div id="root">`,
    );
    return {
      ...finishPage(this.options, settings, status ?? head.status, page),
      forReader: !isVisitor(reader),
    };
  }

  private generationOf(content: SiteContent): Generation {
    const { index } = content;
    const previews = new Map<string, PreviewImage>();
    for (const { path } of index.pages) {
      const { preview } = describePage(
        path,
        { title: '', name: '', status: 200 },
        index,
        content.settings,
      );
      previews.set(preview.file, preview);
    }
    const navigation =
      `<script type="application/json" id="${SITE_NAVIGATION_ELEMENT_ID}">${jsonForScript(content.navigation)}</script>\n    ` +
      `<script type="application/json" id="${SITE_SETTINGS_ELEMENT_ID}">${jsonForScript(content.settings)}</script>`;
    const shell = finishPage(
      this.options,
      content.settings,
      200,
      this.template.replace('<div id="root">', () => `${navigation}\n    <div id="root">`),
    );
    const bare = finishPage(this.options, content.settings, 200, this.template);
    const marked = (mark: string) =>
      Buffer.from(bare.signedIn.html.toString().replace(/<html\b/, () => `<html ${mark}`));
    return {
      content,
      index,
      shell,
      deskShell: marked('data-desk'),
      deskVerifyShell: marked('data-desk="verify-address"'),
      known: new Set(index.pages.map((page) => page.path)),
      drawn: new Map(),
      previews,
    };
  }
}

/** Whether a page for this reader is the one every reader shares. */
const isVisitor = (reader: Reader) => readerKey(reader) === readerKey(VISITOR);

/** Any address no page has: the not-found page, drawn once per generation. */
const NOT_FOUND = '/this-page-does-not-exist';
/** The key of the not-found page sent with 410 (never a path: paths start with /). */
const GONE = 'gone';

/**
 * The home page describes itself with the publication's tagline, where the settings have one
 * (its head, share card and JSON-LD alike).
 */
function withTagline(path: string, head: PageHead, settings: SiteSettings): PageHead {
  return path === '/' && settings.description.trim()
    ? { ...head, description: settings.description }
    : head;
}

/** A page with this deployment's address and the settings' name and look, each way it is sent. */
function finishPage(
  options: SitePagesOptions,
  settings: SiteSettings,
  status: number,
  template: string,
): Page {
  let text = fillPrerenderedPage(applyLook(template, settings), {
    url: options.siteUrl,
    name: settings.title,
  });
  if (!options.paymentsEnabled) text = text.replace(/<html\b/, '<html data-payments="off"');
  return {
    status,
    anonymous: pageCopy(text),
    signedIn: pageCopy(text.replace(/<html\b/, '<html data-signed-in')),
  };
}

const compressGzip = promisify(gzip);
const compressBrotli = promisify(brotliCompress);

/** A page's HTML as it is sent: its validator now, each compressed copy when first asked for. */
export function pageCopy(text: string): PageCopy {
  const html = Buffer.from(text);
  const hash = createHash('sha256').update(html).digest('base64url').slice(0, 22);
  const copies = new Map<'br' | 'gzip', Promise<Buffer>>();
  return {
    html,
    etag: `"${hash}"`,
    compressed(encoding) {
      let copy = copies.get(encoding);
      if (!copy) {
        // On zlib's thread pool, never the event loop: a search page is drawn for one request, and
        // the reader chooses what goes into it. A kept page is compressed once per content for
        // every request after: brotli's quality 5 takes about 2 ms a page (11 would take 40) for a
        // copy within 10 % of its best.
        copy =
          encoding === 'br'
            ? compressBrotli(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
            : compressGzip(html, { level: 9 });
        copies.set(encoding, copy);
        // A failure is not kept: the next request tries again.
        copy.catch(() => copies.delete(encoding));
      }
      return copy;
    },
  };
}

/**
 * The site's one stylesheet (about 6 KB gzipped) goes inline into every drawn page: a first visit
 * then paints with the HTML alone, without waiting on a second request (Lighthouse's
 * render-blocking audit); the bare shell keeps the cached file.
 */
async function readStylesheet(clientDir: string, template: string): Promise<Css> {
  const links = [
    ...template.matchAll(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g),
  ];
  const [link] = links;
  if (links.length !== 1 || !link?.[1]) {
    throw new Error(
      'dist/client/index.html should link exactly one stylesheet (cssCodeSplit: false)',
    );
  }
  const text = await readFile(join(clientDir, link[1]), 'utf8');
  // Nothing in it may end the <style> element early.
  if (text.includes('</')) throw new Error(`${link[1]} holds "</"`);
  return { link: link[0], text };
}
