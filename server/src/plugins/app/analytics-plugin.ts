import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isbot } from 'isbot';
import type { PageviewEvent } from '../../../../contract/analytics.js';
import { creditSignup, lastReadingOf, rememberCheckout } from '../../analytics/conversions.js';
import { countedPages, readPostAddresses } from '../../analytics/counted-pages.js';
import { createEventWriter } from '../../analytics/event-writer.js';
import { countedPath, sourceOf } from '../../analytics/page-view.js';
import { maintainAnalytics } from '../../analytics/rollup.js';
import { createVisitorHasher } from '../../analytics/visitors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Page views, visitors and conversions (docs/analytics.md). */
    analytics: Analytics;
  }
}

export interface Analytics {
  /** Counts a page view if it is one of a real page by a reader (not a bot); else nothing. */
  countView(request: FastifyRequest, event: PageviewEvent): Promise<void>;
  /** A new account made by this request: credited to what its visitor read last today. */
  creditSignup(request: FastifyRequest, userId: string): Promise<void>;
  /** This request started a payment: keeps what its visitor read last until the payment comes. */
  rememberCheckout(request: FastifyRequest, userId: string): Promise<void>;
  /** Writes the views waiting in memory. */
  flush(): Promise<void>;
  /** Rolls up finished days and deletes what is kept no longer (analytics/rollup.ts). */
  maintain(now?: Date): Promise<string[]>;
}

/** How long a view waits in memory at most, and how many are written at once. */
const FLUSH_MS = 1_000;
const BATCH_SIZE = 1_000;
/** How often the rollup and the deletions run (each server; they take turns). */
const MAINTAIN_MS = 60 * 60 * 1000;

/** isbot's list is one long regular expression: the answers for the last user agents seen. */
const botAnswers = new Map<string, boolean>();
const BOT_ANSWERS_KEPT = 1_000;
function isBot(userAgent: string): boolean {
  let answer = botAnswers.get(userAgent);
  if (answer === undefined) {
    answer = isbot(userAgent);
    if (botAnswers.size >= BOT_ANSWERS_KEPT) botAnswers.clear();
    botAnswers.set(userAgent, answer);
  }
  return answer;
}

/**
 * Analytics in the site's own database, with no cookie and no address stored
 * (docs/analytics.md): views are checked against the site's pages, hashed into the day's
 * visitors and written in batches; finished days are rolled up at start and every hour. Views
 * waiting in memory are written when the app closes.
 */
export default fp(
  async function analytics(app: FastifyInstance) {
    const { pool } = app.db;
    const siteHost = new URL(app.config.siteUrl).hostname.toLowerCase();
    const hasher = createVisitorHasher(pool, siteHost);
    const writer = createEventWriter(pool, {
      flushMs: FLUSH_MS,
      batchSize: BATCH_SIZE,
      log: (error) => app.log.error({ err: error }, 'could not write page views'),
    });

    let pages: Promise<Map<string, number | null>> | null = null;
    const readPages = async () =>
      countedPages(app.siteContent.current(), await readPostAddresses(pool, { published: true }));
    app.siteContent.onChange(() => {
      const next = readPages();
      // Until the new map is read, the old one answers.
      next.then(
        () => {
          pages = next;
        },
        (error: unknown) => app.log.error({ err: error }, 'could not read the counted pages'),
      );
    });

    const visitorOf = (request: FastifyRequest, at: Date) =>
      hasher.visitorOf(request.ip, request.headers['user-agent'] ?? '', at);

    async function readingOf(request: FastifyRequest, at: Date) {
      await writer.flush();
      return lastReadingOf(pool, await visitorOf(request, at), at);
    }

    const service: Analytics = {
      async countView(request, event) {
        const userAgent = request.headers['user-agent'];
        if (!userAgent || isBot(userAgent)) return;
        const path = countedPath(event.path);
        if (path === null) return;
        pages ??= readPages();
        const known = await pages.catch((error: unknown) => {
          pages = null;
          throw error;
        });
        const postId = known.get(path);
        if (postId === undefined) return;
        const at = new Date();
        const ownHosts = new Set([siteHost, request.hostname.toLowerCase()]);
        writer.add({
          at,
          visitor: await visitorOf(request, at),
          path,
          postId,
          source: sourceOf(event.path, event.referrer, ownHosts),
        });
      },
      async creditSignup(request, userId) {
        const at = new Date();
        await creditSignup(pool, { userId, reading: await readingOf(request, at), at });
      },
      async rememberCheckout(request, userId) {
        const at = new Date();
        await rememberCheckout(pool, { userId, reading: await readingOf(request, at), at });
      },
      flush: () => writer.flush(),
      maintain: (now) => maintainAnalytics(pool, now),
    };
    app.decorate('analytics', service);

    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> = Promise.resolve();
    const maintain = () => {
      running = service
        .maintain()
        .catch((error: unknown) => app.log.error({ err: error }, 'could not roll up analytics'));
    };
    app.addHook('onReady', async () => {
      maintain();
      timer = setInterval(maintain, MAINTAIN_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await Promise.all([running, writer.close()]);
    });
  },
  { name: 'analytics', dependencies: ['site-content'] },
);
