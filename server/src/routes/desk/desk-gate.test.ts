import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSite, type Site } from '#test/with-site';
import { newVisitor, type Visitor } from '#test/visitor';
import { DESK_API } from '../../../../contract/desk-api.js';

// The desk's one gate, tried from outside: every route the app has under /api/desk, with its path
// spelled every way a router decodes to the same route, answers a visitor exactly what an unknown
// address answers. The routes are read from the app itself, so a route added later is tried too.

interface Route {
  method: string;
  path: string;
}

/** Every route the app serves, read from Fastify's own listing (`printRoutes`). */
function routesOf(t: Site): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const branch = line.search(/[├└]── /);
    if (branch < 0) continue;
    const depth = branch / 4;
    const [, segment = '', methods] =
      /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(branch + 4)) ?? [];
    stack.length = depth;
    const path = `${stack[depth - 1] ?? ''}${segment}`;
    stack[depth] = path;
    for (const method of methods?.split(', ') ?? []) routes.push({ method, path });
  }
  return routes;
}

/** A concrete address for a route: each parameter and wildcard filled in. */
const addressOf = (path: string) => path.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'anything');

/**
 * The address with one character percent-encoded, for each character after `/api/` that is not a
 * slash, in upper- and lower-case hex: all of them reach the same route.
 */
function encodedVariants(address: string): string[] {
  const variants: string[] = [];
  for (let i = '/api/'.length; i < address.length; i += 1) {
    const char = address[i] ?? '/';
    if (char === '/') continue;
    const hex = char.charCodeAt(0).toString(16).padStart(2, '0');
    for (const encoded of [`%${hex.toUpperCase()}`, `%${hex.toLowerCase()}`]) {
      const variant = `${address.slice(0, i)}${encoded}${address.slice(i + 1)}`;
      if (!variants.includes(variant)) variants.push(variant);
    }
  }
  return variants;
}

describe('the desk’s gate', () => {
  let t: Site;
  let anonymous: Visitor;

  beforeAll(async () => {
    t = await withSite();
    anonymous = await newVisitor(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  const headerNames = (headers: Record<string, unknown>) =>
    Object.keys(headers)
      .filter((name) => !['date', 'content-length'].includes(name))
      .sort();

  it('answers a visitor every desk route, however its path is percent-encoded, as an unknown address', async () => {
    const deskRoutes = routesOf(t).filter(({ path }) => path.startsWith(`${DESK_API}/`));
    // The listing is read right: the desk's screens are all there.
    expect(deskRoutes.length).toBeGreaterThan(40);
    for (const path of ['/api/desk/me', '/api/desk/posts/:id/newsletter', '/api/desk/uploads']) {
      expect(deskRoutes.map((route) => route.path)).toContain(path);
    }

    const unknown = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    let tried = 0;
    for (const { method, path } of deskRoutes) {
      if (method === 'HEAD') continue;
      const address = addressOf(path);
      for (const url of [address, ...encodedVariants(address)]) {
        for (const cookie of [undefined, anonymous.cookie]) {
          const response = await t.app.inject({
            method: method as 'GET',
            url,
            headers: {
              ...(cookie && { cookie }),
              ...(method !== 'GET' &&
                method !== 'DELETE' && { 'content-type': 'application/json' }),
            },
            ...(method !== 'GET' && method !== 'DELETE' && { payload: '{}' }),
          });
          expect({ method, url, status: response.statusCode, body: response.json() }).toEqual({
            method,
            url,
            status: 404,
            body: { error: { code: 'not_found', message: `No such resource: ${method} ${url}` } },
          });
          expect(headerNames(response.headers)).toEqual(headerNames(unknown.headers));
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThan(1000);
  });
});
