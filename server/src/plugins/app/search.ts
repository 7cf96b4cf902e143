import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  DEFAULT_SEARCH_LIMIT,
  MAX_QUERY_LENGTH,
  normalizeQuery,
  type SearchResults,
} from '../../../../contract/search.js';
import { HttpError } from '../../http/errors.js';
import { addSearchWords, searchPosts } from '../../search/search.js';

declare module 'fastify' {
  interface FastifyInstance {
    siteSearch: SiteSearch;
  }
}

export interface SiteSearch {
  /** The live posts matching a query as typed; a query too long is a 400 (`query_too_long`). */
  find(raw: string, limit?: number): Promise<SearchResults>;
}

/** A query longer than MAX_QUERY_LENGTH, after its spaces are collapsed. */
export const queryTooLong = () =>
  new HttpError(
    400,
    'query_too_long',
    `Search for at most ${MAX_QUERY_LENGTH} characters: a few words find more.`,
  );

/**
 * The site's search (server/src/search/), and the published words it corrects misspellings
 * against: added to after every change to the content, one read at a time, in the background.
 */
export default fp(
  async function search(app: FastifyInstance) {
    let since: Date | null = null;
    let running: Promise<void> | null = null;
    let again = false;

    function refreshWords(): void {
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          const began = await addSearchWords(app.db.pool, since);
          // A little before: a post saved as the last read began is read again, not missed.
          since = new Date(began.getTime() - 5_000);
        } while (again);
      })()
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not update search words'))
        .finally(() => {
          running = null;
        });
    }
    app.siteContent.onChange(refreshWords);
    app.addHook('onClose', async () => {
      again = false;
      await running;
    });

    app.decorate('siteSearch', {
      async find(raw: string, limit = DEFAULT_SEARCH_LIMIT) {
        const query = normalizeQuery(raw);
        if (query === null) throw queryTooLong();
        return { query, results: await searchPosts(app.db.pool, query, limit) };
      },
    } satisfies SiteSearch);
  },
  { name: 'search', dependencies: ['database', 'site-content'] },
);
