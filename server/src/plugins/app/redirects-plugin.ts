import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  compileRedirects,
  findRedirect,
  REQUEST_BUDGET_MS,
  type CompiledRedirect,
  type RedirectAnswer,
} from '../../redirects/redirect-rules.js';
import { readStoredRules } from '../../redirects/redirect-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The publisher's redirects, held compiled (redirects/). */
    customRedirects: CustomRedirectsSource;
  }
}

export interface CustomRedirectsSource {
  /** Where an address no page has goes, if one of the publisher's redirects says. */
  find(path: string, query: string): RedirectAnswer | null;
  /** Reads them again now (after this server changed them, before it answers). */
  reload(): Promise<void>;
}

/**
 * The publisher's redirects, read once when the app is ready and kept compiled in memory. A change
 * announces a content change (redirect-store.ts), so each app server, told of it by the content
 * generation (site-content-plugin.ts), reads them again; they are compiled again only when they
 * changed. A request spends at most REQUEST_BUDGET_MS trying them, then answers its 404.
 */
export default fp(
  async function customRedirects(app: FastifyInstance) {
    let held: { updatedAt: number; redirects: CompiledRedirect[] } = {
      updatedAt: -1,
      redirects: [],
    };
    let reading: Promise<void> = Promise.resolve();

    async function read() {
      const stored = await readStoredRules(app.db.pool);
      if (stored.updatedAt === held.updatedAt) return;
      held = {
        updatedAt: stored.updatedAt,
        redirects: compileRedirects(stored.rules, (rule, error) =>
          app.log.warn({ from: rule.from, err: error }, 'a stored redirect was left out'),
        ),
      };
    }

    /** One read after another, so an older read never lands after a newer one. */
    function reload(): Promise<void> {
      reading = reading
        .then(read)
        .catch((error: unknown) => app.log.error({ err: error }, 'could not read the redirects'));
      return reading;
    }

    app.decorate('customRedirects', {
      find: (path, query) =>
        findRedirect(held.redirects, path, query, {
          budgetMs: REQUEST_BUDGET_MS,
          onOverBudget: (tried) =>
            app.log.warn(
              { path: path.slice(0, 200), tried, of: held.redirects.length },
              `trying the redirects took over ${REQUEST_BUDGET_MS} ms: stopped, answered 404`,
            ),
        }),
      reload,
    } satisfies CustomRedirectsSource);
    app.addHook('onReady', reload);
    app.siteContent.onChange(() => void reload());
  },
  { name: 'custom-redirects', dependencies: ['database', 'site-content'] },
);
