import { createRequire } from 'node:module';
import { SignJWT } from 'jose';

// Ghost's official Admin API client (`@tryghost/admin-api`, a development dependency), typed for
// the tests that drive the site's Admin API with it (server/src/routes/ghost-admin). The package
// ships no types: these are the calls the tests make, as its source (lib/admin-api.js) has them.

type Data = Record<string, unknown>;
type Query = Record<string, unknown>;
/** An answer: the one item, or a list of them with Ghost's `meta`. */
export type GhostItem = Data & { id: string };
export type GhostList = GhostItem[] & { meta: { pagination: Data } };

export interface GhostResourceApi {
  browse(query?: Query): Promise<GhostList>;
  read(data: Data, query?: Query): Promise<GhostItem>;
  add(data: Data, query?: Query): Promise<GhostItem>;
  edit(data: Data, query?: Query): Promise<GhostItem>;
  delete(data: Data, query?: Query): Promise<unknown>;
}

export interface GhostAdminApi {
  posts: GhostResourceApi;
  pages: GhostResourceApi;
  tags: GhostResourceApi;
  members: GhostResourceApi;
  site: { read(): Promise<Data> };
  images: { upload(data: { file: string; ref?: string; purpose?: string }): Promise<Data> };
}

/** The error the client throws for an answer in Ghost's error shape: `name` is Ghost's type. */
export interface GhostClientError extends Error {
  type?: string;
  code?: string | null;
}

const require = createRequire(import.meta.url);
export const GhostAdminAPI = require('@tryghost/admin-api') as (options: {
  url: string;
  key: string;
  version: string;
}) => GhostAdminApi;

/** The error a call fails with (to read its name), or a failure when it succeeds. */
export async function ghostFailure(call: Promise<unknown>): Promise<GhostClientError> {
  try {
    await call;
  } catch (error) {
    return error as GhostClientError;
  }
  throw new Error('expected the call to be refused');
}

/** A token as Ghost's client signs one with an admin key's id and secret, with what a test changes. */
export async function ghostAdminToken(
  kid: string,
  secretHex: string,
  options: { lifeS?: number; aud?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', kid })
    .setIssuedAt(now)
    .setExpirationTime(now + (options.lifeS ?? 300))
    .setAudience(options.aud ?? '/admin/')
    .sign(Buffer.from(secretHex, 'hex'));
}

/** `Authorization: Ghost <jwt>`, as Ghost's client sends it with an admin key (`<id>:<secret>`). */
export async function ghostAuthorization(adminKey: string): Promise<string> {
  const [kid = '', secret = ''] = adminKey.split(':');
  return `Ghost ${await ghostAdminToken(kid, secret)}`;
}
