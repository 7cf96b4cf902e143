import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  browseResource,
  ghostContentIndex,
  keptAnswer,
  readResource,
  type GhostContentIndex,
  type GhostResource,
} from '../../ghost-api/content-index.js';
import { unauthorized } from '../../ghost-api/ghost-error.js';
import { GHOST_QUERY_NAMES, ghostQueryOf, type GhostQuery } from '../../ghost-api/ghost-query.js';
import {
  browseGhostTiers,
  ghostTiers,
  tiersStamp,
  visibleGhostTiers,
  type GhostTier,
} from '../../ghost-api/ghost-tiers.js';
import { ghostSettings } from '../../ghost-api/site-settings.js';
import { findIntegrationByContentKey } from '../../integrations/integrations.js';
import type { TierCatalog } from '../../memberships/tier-catalog.js';

/**
 * The kept answers' key: the resource, the query that shapes it (never the key) and the tiers a
 * post's `include=tiers` lists (they change without the content).
 */
const answerKey = (resource: string, query: GhostQuery, tiers: readonly GhostTier[]) =>
  `${resource}?${GHOST_QUERY_NAMES.map((name) => query[name] ?? '').join('\u0000')}\u0000${tiersStamp(tiers)}`;

/** How many checked keys one generation of the content keeps (a site has at most 100). */
const MAX_KEPT_KEYS = 1_000;

/**
 * Ghost's Content API (docs/ghost-api.md), registered under `/ghost/api/content` (and the older
 * versioned prefixes): posts, pages, tags, authors, settings and tiers, read with an integration's
 * content key in `?key=`. Every address answers with and without its trailing slash. Answers come
 * from the published content the pages are drawn from, through content-index.ts, so the same
 * request costs the key's lookup and a kept answer; anyone may read them from a browser on any
 * site (`Access-Control-Allow-Origin: *`), as Ghost allows.
 */
const ghostContentRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app;
  const site = () => ({
    siteUrl: config.siteUrl,
    sectionSlugs: app.siteContent.current().sectionSlugs,
  });
  const settingsSite = () => ({
    siteUrl: config.siteUrl,
    // The publication's title now, from its settings (the desk may rename it).
    siteName: app.siteContent.current().settings.title,
    paymentsEnabled: app.payments !== null,
  });

  const index = (): GhostContentIndex => ghostContentIndex(app.siteContent.current(), site());

  /**
   * Every tier in Ghost's shape, as the site sells them now (plugins/app/plans-plugin.ts), drawn
   * once per read of the catalog: the same array, so its stamp (answerKey) is made once too.
   */
  const drawnTiers = new WeakMap<TierCatalog, GhostTier[]>();
  const tiers = async (): Promise<GhostTier[]> => {
    const catalog = await app.plans.catalog();
    let drawn = drawnTiers.get(catalog);
    if (!drawn) {
      drawn = ghostTiers(catalog, {
        siteUrl: config.siteUrl,
        selling: app.payments !== null,
        currency: config.membership.currency,
      });
      drawnTiers.set(catalog, drawn);
    }
    return drawn;
  };

  app.addHook('onSend', async (_request, reply) => {
    // Any site's pages may read it, as Ghost's: not only this site's (the security headers' default).
    void reply
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin');
  });

  // A browser's preflight for a request carrying Accept-Version: allowed, with no key needed.
  app.options(
    '/*',
    { config: { access: 'anyone', changesState: false } },
    async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-methods', 'GET, HEAD, OPTIONS')
        .header('access-control-allow-headers', 'Accept-Version, Content-Type, Authorization')
        .header('access-control-max-age', '86400')
        .send(),
  );

  // The key, asked of the routes that declare it (`access: 'content-api-key'`): after the query is
  // read, since the key is in it; here, to answer in Ghost's words.
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.access !== 'content-api-key') return;
    const { key } = request.query as Record<string, unknown>;
    if (key === undefined || key === '') {
      throw unauthorized('Authorization failed: send the Content API key as ?key=.');
    }
    if (typeof key !== 'string') throw unauthorized('Unknown Content API Key');
    const { keys } = index();
    if (keys.has(key)) return;
    if (!(await findIntegrationByContentKey(app.db.pool, key))) {
      throw unauthorized('Unknown Content API Key');
    }
    if (keys.size < MAX_KEPT_KEYS) keys.add(key);
  });

  /** Registers a GET at `path/` and at `path`: Ghost's clients send the first. */
  const get = (
    path: string,
    answer: (
      request: FastifyRequest<{ Params: Record<string, string> }>,
    ) => Promise<string | Buffer> | string | Buffer,
  ) => {
    const handler = async (
      request: FastifyRequest<{ Params: Record<string, string> }>,
      reply: FastifyReply,
    ) => {
      const text = await answer(request);
      return reply
        .header('cache-control', 'public, max-age=0')
        .type('application/json; charset=utf-8')
        .send(text);
    };
    const config = { access: 'content-api-key', changesState: false } as const;
    app.get(`${path}/`, { config }, handler);
    app.get(path, { config }, handler);
  };

  /** A read's answer, kept as a browse's is. */
  const readAnswer = async (
    resource: GhostResource,
    by: { id: string } | { slug: string },
    query: GhostQuery,
  ) => {
    const held = index();
    const all = await tiers();
    const address = 'id' in by ? `${resource}/${by.id}` : `${resource}/slug/${by.slug}`;
    return keptAnswer(held, answerKey(address, query, all), () => ({
      [resource]: [readResource(held, resource, by, query, all)],
    }));
  };

  for (const resource of ['posts', 'pages', 'tags', 'authors'] as const) {
    get(`/${resource}`, async (request) => {
      const query = ghostQueryOf(request.query);
      const held = index();
      const all = await tiers();
      return keptAnswer(held, answerKey(resource, query, all), () => {
        const { items, meta } = browseResource(held, resource, query, all);
        return { [resource]: items, meta };
      });
    });
    get(`/${resource}/:id`, (request) =>
      readAnswer(resource, { id: request.params.id ?? '' }, ghostQueryOf(request.query)),
    );
    get(`/${resource}/slug/:slug`, (request) =>
      readAnswer(resource, { slug: request.params.slug ?? '' }, ghostQueryOf(request.query)),
    );
  }

  get('/settings', () =>
    JSON.stringify({
      settings: ghostSettings(app.siteContent.current(), settingsSite()),
      meta: {},
    }),
  );
  // Ghost's free tier and the tiers the site offers readers, by increasing monthly price.
  get('/tiers', async (request) =>
    JSON.stringify(browseGhostTiers(visibleGhostTiers(await tiers()), ghostQueryOf(request.query))),
  );
};

export default ghostContentRoutes;
