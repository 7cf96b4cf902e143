import { channel } from 'node:diagnostics_channel';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import Fastify, { type FastifyInstance, type HTTPMethods, type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember, type Member } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import { DESK_API } from '../../../../contract/desk-api.js';
import { DomainError } from '../../domain-error.js';
import type { Staff, StaffRole } from '../../staff/staff.js';
import { DESK_ACCESS, requireAccessDeclared, type DeskAccess } from './desk-access.js';

// Who may call each desk route is said once, on the route (`config: {access}`), and held once, by
// the desk's gate. These tests read every route the real app has, with what each declares, and
// call each as every staff member its declaration refuses: the refusal is the gate's, before the
// route reads its body or its parameters, so a route added later is held to its word too.

interface DeclaredRoute {
  method: string;
  url: string;
  access: unknown;
}

const OWNERS = ['access-owner@example.com', 'access-stale-owner@example.com'];
const STAFF_ENV = {
  STAFF_EMAILS: OWNERS.join(','),
  EDITOR_EMAILS: 'access-editor@example.com',
  WRITER_EMAILS: 'access-writer@example.com',
};
const THIRTEEN_HOURS_AGO = () => new Date(Date.now() - 13 * 60 * 60 * 1000);

/** The refusal's code a declaration gives `staff`, or null: let through. */
function refusalOf(access: DeskAccess, staff: Pick<Staff, 'role' | 'signedInAt'>): string | null {
  try {
    DESK_ACCESS[access]({ userId: '', email: '', sessionId: '', ...staff });
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

/** The address a route's path stands for: each parameter filled in. */
const addressOf = (url: string) => url.replace(/:[A-Za-z]+/g, '1');

let site: Site;
const routes: DeclaredRoute[] = [];
const callers: { who: string; member: Member; role: StaffRole; signedInAt: Date }[] = [];

beforeAll(async () => {
  // Every route the app adds, with its options: a hook put on the app as Fastify makes it, before
  // any plugin, so it sees the routes of every scope.
  const initialization = channel('fastify.initialization');
  const listen = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        routes.push({ method, url: route.url, access: route.config?.access });
      }
    });
  };
  initialization.subscribe(listen);
  try {
    site = await withSite({ env: STAFF_ENV });
  } finally {
    initialization.unsubscribe(listen);
  }
  const now = new Date();
  for (const [who, role, signedInAt] of [
    ['a writer', 'writer', now],
    ['an editor', 'editor', now],
    ['an owner signed in 13 hours ago', 'owner', THIRTEEN_HOURS_AGO()],
  ] as const) {
    const member = await buildMember(site, {
      role,
      signedInAt,
      ...(role === 'owner' && { email: OWNERS[1] }),
    });
    callers.push({ who, member, role, signedInAt });
  }
});
afterAll(async () => {
  await site?.close();
});

const deskRoutes = () => routes.filter(({ url }) => url.startsWith(`${DESK_API}/`));

describe('who may call each desk route', () => {
  it('is declared by every route the desk has, with one of the desk’s accesses', () => {
    // The listing is read right: the desk's screens are all there, the preview among them.
    expect(deskRoutes().length).toBeGreaterThan(70);
    for (const path of ['/me', '/posts/:id/preview', '/members/:id/comps', '/imports']) {
      expect(deskRoutes().map(({ url }) => url)).toContain(`${DESK_API}${path}`);
    }
    const undeclared = deskRoutes().filter(
      ({ access }) => !Object.hasOwn(DESK_ACCESS, `${access}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('refuses each staff member what the route does not allow them, before anything else', async () => {
    let refused = 0;
    for (const { method, url, access } of deskRoutes()) {
      if (method === 'HEAD') continue;
      for (const { who, member, role, signedInAt } of callers) {
        const code = refusalOf(access as DeskAccess, { role, signedInAt });
        if (code === null) continue;
        const body = method === 'GET' || method === 'DELETE' ? undefined : '{"not json';
        const response = await site.call(member, method as HTTPMethods, addressOf(url), body);
        expect({ route: `${method} ${url}`, who, status: response.statusCode }).toEqual({
          route: `${method} ${url}`,
          who,
          status: 403,
        });
        expect(response.json().error.code, `${method} ${url} for ${who}`).toBe(code);
        refused += 1;
      }
    }
    // Writers alone are refused most of the desk's members and money.
    expect(refused).toBeGreaterThan(60);
  });

  it('is checked nowhere else: no route file checks a role by hand', async () => {
    const routesDir = join(import.meta.dirname, '..');
    const checks =
      /\brole\s*[!=]==|\brequire(ChangeAllowed|ChangingRole|MaySeeMembers|MayPublish|Owner|Staff)\(/;
    const found: string[] = [];
    for (const entry of await readdir(routesDir, { recursive: true })) {
      if (!entry.endsWith('.ts') || entry.endsWith('.test.ts')) continue;
      const file = join(routesDir, entry);
      // The gate itself: the desk's index (requireStaff) and its table of accesses.
      if (['desk/index.ts', 'desk/desk-access.ts'].includes(relative(routesDir, file))) continue;
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, at) => {
        if (checks.test(line)) found.push(`${relative(routesDir, file)}:${at + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('keeps a route that says nothing, or names no access of the desk, from starting', async () => {
    const configs: { access?: DeskAccess }[] = [{}, { access: 'everyone' as DeskAccess }];
    for (const config of configs) {
      const app = Fastify();
      void app.register(async (scope) => {
        scope.addHook('onRoute', (route: RouteOptions) => requireAccessDeclared(route));
        scope.get('/api/desk/forgotten', { config }, async () => ({}));
      });
      await expect(app.ready()).rejects.toThrow(/GET \/api\/desk\/forgotten: .*config\.access/);
      await app.close();
    }
  });
});
