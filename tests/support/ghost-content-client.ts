import { createRequire } from 'node:module';

// Ghost's official Content API client (`@tryghost/content-api`, a development dependency), typed
// for the tests that drive the site's Content API with it (server/src/routes/ghost-api). The
// package ships no types: these are the calls the tests make, as its source (lib/content-api.js)
// has them: every resource browses, and all but settings and tiers read by id or slug.

type Query = Record<string, string | number>;
export type GhostItem = Record<string, unknown>;
export type GhostPage<T = GhostItem> = T[] & {
  meta: {
    pagination: {
      page: number;
      limit: number | 'all';
      pages: number;
      total: number;
      next: number | null;
      prev: number | null;
    };
  };
};

interface Resource {
  browse(query?: Query): Promise<GhostPage>;
  read(data: { id: string } | { slug: string }, query?: Query): Promise<GhostItem>;
}

export interface GhostContentApi {
  posts: Resource;
  pages: Resource;
  tags: Resource;
  authors: Resource;
  settings: { browse(): Promise<GhostItem> };
  tiers: { browse(query?: Query): Promise<GhostPage> };
}

const require = createRequire(import.meta.url);
/** `GhostContentAPI({url, key, version})`, as a front end built for Ghost calls it. */
export const GhostContentAPI = require('@tryghost/content-api') as (options: {
  url: string;
  key: string;
  version: string;
}) => GhostContentApi;
