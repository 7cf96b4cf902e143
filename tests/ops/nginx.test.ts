import { copyFileSync, existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripe } from '#test/fake-stripe';
import {
  CONTENT_SECURITY_POLICY,
  PERMISSIONS_POLICY,
} from '../../server/src/http/security-headers.js';
import { SITE_FILES } from '../../contract/site-index.js';
import { brotliModule, clientDir, findNginx, startNginxStack, type NginxStack } from '#test/nginx';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { parseCsp, rawGet } from '#test/raw-answers';
import { createTestRedis, type TestRedis } from '#test/test-redis';

/**
 * The shipped nginx.conf, run by the real nginx in front of two real app processes (the built
 * server, `node dist/server/src/server.js`) that share one PostgreSQL database and the local Redis:
 * what `docker compose up --scale app=2` runs, without Docker.
 */

const SESSION_RATE_LIMIT = 5;
const METRICS_TOKEN = 'nginx-test-metrics-token-0123456789';

const nginxBinary = findNginx();
const title = nginxBinary
  ? 'nginx.conf in front of two app servers'
  : 'nginx.conf in front of two app servers (SKIPPED: no nginx binary; install Debian’s nginx or set NGINX_PATH)';

describe.skipIf(!nginxBinary)(title, () => {
  let database: TestDatabase;
  let redis: TestRedis;
  const stripe = new FakeStripe();
  let stack: NginxStack | undefined;
  let site: string;
  let appUploads: string;

  beforeAll(async () => {
    appUploads = await mkdtemp(join(tmpdir(), 'cohort-nginx-uploads-'));
    [database, redis] = await Promise.all([createMigratedTestDatabase(), createTestRedis()]);
    await stripe.start();
    stack = await startNginxStack({
      env: {
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        SESSION_RATE_LIMIT: String(SESSION_RATE_LIMIT),
        METRICS_TOKEN,
        // Both app servers keep images in one folder (as on one machine's volume).
        UPLOADS_DIR: appUploads,
        // TRUST_PROXY stays unset: the default trusts nginx on the loopback interface only.
        ...stripe.env(),
      },
      accessLog: true,
    });
    site = stack.url;
  });

  afterAll(async () => {
    await stack?.stop();
    await stripe.stop();
    await redis?.drop();
    await database?.drop();
    if (appUploads) await rm(appUploads, { recursive: true, force: true });
  });

  /** Which app server (by port) answered each proxied request, from nginx's access log. */
  /**
   * The app ports nginx sent `path` to, from its access log. nginx writes a request's line once
   * the response has gone, which can be just after the client has read it: a path not logged yet
   * is looked for again for up to a second.
   */
  async function upstreamsFor(path: string): Promise<number[]> {
    for (let attempt = 0; ; attempt += 1) {
      const log = (await stack?.accessLog()) ?? '';
      const upstreams = log
        .split('\n')
        .map((line) => line.split(' '))
        .filter(([, uri]) => uri === path)
        .map(([, , upstream]) => Number(upstream?.split(':').pop()));
      if (upstreams.length > 0 || attempt >= 20) return upstreams;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const appPorts = () => (stack?.apps ?? []).map((app) => app.port).sort();
  /** A page as an app server behind nginx sends it itself, uncompressed. */
  const pageFromApp = async (path: string) => {
    const port = appPorts()[0];
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    return response.text();
  };
  const unique = (ports: number[]) => [...new Set(ports)].sort();

  it('serves each page gzipped, revalidated on every load, with this site’s address', async () => {
    const response = await fetch(`${site}/`, { headers: { 'accept-encoding': 'gzip' } });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const etag = response.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(await response.text()).toBe(await pageFromApp('/'));
    const again = await fetch(`${site}/`, { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
  });

  it('serves the hashed assets as the build compressed them, and cached for a year', async () => {
    // The shell links the stylesheet that prerendered pages inline, beside the entry script.
    const html = readFileSync(join(clientDir, 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
      (match) => match[1] ?? '',
    );
    expect(assets.length).toBeGreaterThanOrEqual(2);

    for (const asset of assets) {
      // The very bytes of the build's .gz: nginx compressed nothing itself.
      const file = join(clientDir, asset);
      expect(existsSync(`${file}.gz`), `${asset}.gz`).toBe(true);
      expect(existsSync(`${file}.br`), `${asset}.br`).toBe(true);
      const response = await rawGet(`${site}${asset}`, { 'accept-encoding': 'gzip' });
      expect(response.status, asset).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(response.headers.vary).toMatch(/Accept-Encoding/i);
      expect(response.body.equals(readFileSync(`${file}.gz`)), asset).toBe(true);

      // Brotli where this nginx has the module, else gzip all the same.
      const br = await rawGet(`${site}${asset}`, { 'accept-encoding': 'gzip, br' });
      expect(br.headers['content-encoding']).toBe(brotliModule ? 'br' : 'gzip');
      expect(br.body.equals(readFileSync(`${file}.${brotliModule ? 'br' : 'gz'}`))).toBe(true);
    }

    const plain = await fetch(`${site}${assets[0]}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();

    const missing = await fetch(`${site}/assets/index-00000000.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBeNull();
  });

  it('never serves a source map, and the build keeps them out of the public folder', async () => {
    const maps = readdirSync(join(clientDir, '..', 'sourcemaps', 'assets'));
    expect(maps.length).toBeGreaterThan(0);
    expect(readdirSync(join(clientDir, 'assets')).filter((file) => file.endsWith('.map'))).toEqual(
      [],
    );
    // Even a map put back into the public folder (an old deployment's files) is not served.
    const map = maps[0] ?? '';
    copyFileSync(
      join(clientDir, '..', 'sourcemaps', 'assets', map),
      join(clientDir, 'assets', map),
    );
    try {
      for (const path of [`/assets/${map}`, '/anything.js.map']) {
        expect((await fetch(`${site}${path}`)).status, path).toBe(404);
      }
    } finally {
      rmSync(join(clientDir, 'assets', map));
    }
  });

  it('passes pages on as the app compressed them (brotli or gzip), without compressing again', async () => {
    const expected = await pageFromApp('/');
    const br = await rawGet(`${site}/`, { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(expected);
    const gzip = await rawGet(`${site}/`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(expected);
  });

  it('answers pages with their own HTML, unknown ones with the 404 page, and old ones with a 301', async () => {
    const page = await fetch(`${site}/early-access`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Early Access · Cohort</title>');
    for (const path of ['/health/some-article', '/pk']) {
      const response = await fetch(`${site}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(await response.text(), path).toContain('Page not found');
    }
    const moved = await fetch(`${site}/index`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/');

    expect((await fetch(`${site}/no-such-file.png`)).status).toBe(404);

    const api = await fetch(`${site}/api/no-such-endpoint`);
    expect(api.status).toBe(404);
    expect((await api.json()).error.code).toBe('not_found');
  });

  it('never redirects a reader off the site, whatever the path', async () => {
    // Sent as written, over a socket: a URL parser would turn `/\\host` into `//host` first.
    const { hostname, port } = new URL(site);
    for (const path of [
      '//evil.example/',
      '/\\evil.example/',
      '///evil.example//',
      '/\\/evil.example/',
    ]) {
      const location = await new Promise<string | undefined>((resolve, reject) => {
        request({ hostname, port, path }, (response) => {
          response.resume();
          resolve(response.headers.location);
        })
          .on('error', reject)
          .end();
      });
      expect({ path, location }).toEqual({ path, location: '/evil.example' });
    }
  });

  it('sends the security headers and a CSP that allows Stripe.js and nothing else third-party', async () => {
    for (const path of ['/', '/api/config']) {
      const response = await fetch(`${site}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('permissions-policy')).toMatch(/camera=\(\)/);
      expect(response.headers.get('strict-transport-security')).toBeNull(); // plain HTTP
      expect(response.headers.get('server')).toBe('nginx');

      // One policy (the app's copy hidden behind nginx's), and the app's own policy.
      const csp = parseCsp(response.headers.get('content-security-policy') ?? '');
      expect(csp).toEqual(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('permissions-policy')).toBe(PERMISSIONS_POLICY);
    }
    // The app alone sends them too.
    const direct = await fetch(`${stack?.apps[0]?.url}/api/config`);
    expect(parseCsp(direct.headers.get('content-security-policy') ?? '')).toEqual(
      CONTENT_SECURITY_POLICY,
    );
    expect(direct.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('spreads requests over both app servers, and a session made through one works on the other', async () => {
    const started = await fetch(`${site}/api/session`, { method: 'POST' });
    expect(started.status).toBe(200);
    const { user } = (await started.json()) as { user: { id: string } };
    const setCookie = started.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^cohort_session=/);
    expect(setCookie).not.toMatch(/;\s*Secure/i); // X-Forwarded-Proto: http
    const cookie = setCookie.split(';')[0] ?? '';

    for (let i = 0; i < 4; i += 1) {
      const me = await fetch(`${site}/api/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { user: { id: string } }).user.id).toBe(user.id);
    }
    expect(unique(await upstreamsFor('/api/me'))).toEqual(appPorts());

    for (const app of stack?.apps ?? []) {
      const me = await fetch(`http://127.0.0.1:${app.port}/api/me`, { headers: { cookie } });
      expect(me.status, `app on ${app.port}`).toBe(200);
      expect(((await me.json()) as { user: { id: string } }).user.id).toBe(user.id);
    }
  });

  it('counts the session rate limit once across both app servers, by the address nginx saw', async () => {
    const remaining: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i <= SESSION_RATE_LIMIT && !limited; i += 1) {
      const response = await fetch(`${site}/api/session`, { method: 'POST' });
      if (response.status === 429) limited = response;
      else {
        expect(response.status).toBe(200);
        remaining.push(Number(response.headers.get('x-ratelimit-remaining')));
      }
    }
    // One counter: each answer, whichever server gave it, has one request fewer left.
    expect(remaining.length).toBeGreaterThanOrEqual(2);
    expect(remaining.at(-1)).toBe(0);
    remaining.forEach((left, i) => expect(left).toBe((remaining[0] ?? 0) - i));
    expect(unique(await upstreamsFor('/api/session'))).toEqual(appPorts());

    // The app's 429 (nginx's own edge limit for sessions is far higher).
    if (!limited) throw new Error(`no 429 after ${SESSION_RATE_LIMIT + 1} sessions`);
    expect(limited.headers.get('x-ratelimit-limit')).toBe(String(SESSION_RATE_LIMIT));
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).error).toEqual({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many requests: try again in /),
    });

    // A client cannot pose as someone else: nginx replaces X-Forwarded-For.
    const spoofed = await fetch(`${site}/api/session`, {
      method: 'POST',
      headers: { 'x-forwarded-for': '198.51.100.99' },
    });
    expect(spoofed.status).toBe(429);
  });

  it('answers a flood of sign-in attempts with its own 429, without passing it to the app', async () => {
    const edgeMessage = /^Too many requests from your address/;
    const answers: { status: number; message: string }[] = [];
    for (let i = 0; i < 30; i += 1) {
      const response = await fetch(`${site}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'someone@example.com', password: 'not-the-password' }),
      });
      const body = (await response.json()) as { error?: { code: string; message: string } };
      answers.push({ status: response.status, message: body.error?.message ?? '' });
      if (edgeMessage.test(body.error?.message ?? '')) {
        expect(response.status).toBe(429);
        expect(response.headers.get('content-type')).toBe('application/json');
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(body.error?.code).toBe('rate_limited');
      }
    }
    const atEdge = answers.filter((answer) => edgeMessage.test(answer.message));
    // The app's own answers (wrong password, then its limits) come first; nginx's once the flood
    // passes its zone.
    expect(answers.slice(0, 10).every((answer) => !edgeMessage.test(answer.message))).toBe(true);
    expect(atEdge.length).toBeGreaterThanOrEqual(5);

    const log = (await stack?.accessLog()) ?? '';
    const unproxied = log.split('\n').filter((line) => line === 'POST /api/auth/login - 429');
    expect(unproxied.length).toBe(atEdge.length);
  });

  it('answers a flood of searches with its own 429, after letting a reader’s typing through', async () => {
    const statuses: number[] = [];
    let edge: { code?: string } | undefined;
    for (let i = 0; i < 120; i += 1) {
      const response = await fetch(`${site}/api/search?q=loan${i % 10}`);
      statuses.push(response.status);
      if (response.status === 429) {
        edge ??= ((await response.json()) as { error?: { code: string } }).error;
      } else await response.arrayBuffer();
    }
    // A burst of 60 at once, then two a second: a person typing never meets it.
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(20);
    expect(edge?.code).toBe('rate_limited');
  });

  it('passes a signed Stripe webhook through unchanged, so it verifies and is recorded', async () => {
    const event = stripe.event('customer.created', { id: 'cus_nginx', object: 'customer' });
    const { payload, headers } = stripe.signedDelivery(event);

    const response = await fetch(`${site}/webhooks/stripe`, {
      method: 'POST',
      headers,
      body: payload,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(await countStripeEvents(database.url, event.id)).toBe(1);

    const tampered = await fetch(`${site}/webhooks/stripe`, {
      method: 'POST',
      headers,
      body: payload.replace('cus_nginx', 'cus_other'),
    });
    expect(tampered.status).toBe(400);
    expect((await tampered.json()).error.code).toBe('invalid_signature');
  });

  it('limits request bodies: 64 KB for the API, 650 KB for a post, an import’s file to the app, 1 MB for webhooks', async () => {
    const tooBig = await fetch(`${site}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(70 * 1024) }),
    });
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).error.code).toBe('payload_too_large');

    // A post of 200,000 characters reaches the app (whose desk answers a visitor 404); past the
    // 650 KB a post's text can take, nginx refuses it.
    const post = (characters: number) =>
      fetch(`${site}/api/desk/posts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'article', body: '€'.repeat(characters) }),
      });
    const longPost = await post(200_000);
    expect(longPost.status).toBe(404);
    expect((await longPost.json()).error.code).toBe('not_found');
    expect((await post(230_000)).status).toBe(413);

    // An import's file (here 2 MB, past a post's limit) streams on to the app, which answers a
    // visitor 404 as for any desk address: the import's own limit is the app's (IMPORT_MAX_MB).
    const form = new FormData();
    form.append('source', 'ghost');
    form.append('file', new Blob([new Uint8Array(2 * 1024 * 1024)]), 'export.zip');
    const importFile = await fetch(`${site}/api/desk/imports`, { method: 'POST', body: form });
    expect(importFile.status).toBe(404);
    expect((await importFile.json()).error.code).toBe('not_found');

    // A large (200 KB) but legitimate event reaches the app and verifies.
    const customer = { id: 'cus_large', object: 'customer', description: 'x'.repeat(200 * 1024) };
    const { payload, headers } = stripe.signedDelivery(stripe.event('customer.created', customer));
    const large = await fetch(`${site}/webhooks/stripe`, {
      method: 'POST',
      headers,
      body: payload,
    });
    expect(large.status).toBe(200);
  });

  it('keeps query strings out of its access log, the Referer’s included', async () => {
    const secret = `secret${Date.now()}`;
    await fetch(`${site}/reset-password?token=${secret}`, {
      headers: { referer: `${site}/account?checkout_session_id=cs_${secret}` },
    });
    await fetch(`${site}/api/me?token=${secret}`);
    // nginx writes its log in batches, at least every second.
    await expect
      .poll(async () => (await stack?.siteAccessLog()) ?? '', { timeout: 5_000 })
      .toContain('/api/me?');
    const log = (await stack?.siteAccessLog()) ?? '';
    expect(log).toContain('"GET /reset-password?[redacted] HTTP/1.1" 200');
    expect(log).toContain(`"${site}/account?[redacted]"`);
    expect(log).not.toContain(secret);
  });

  it('a client’s forged X-Forwarded-Host does not get a cross-site request past the app', async () => {
    const forged = await fetch(`${site}/api/session`, {
      method: 'POST',
      headers: {
        origin: 'http://evil.example',
        'x-forwarded-host': 'evil.example',
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(forged.status).toBe(403);
  });

  it("passes the sitemap, the feeds (a topic's too), robots.txt and the manifest to the app, which names this site", async () => {
    const files: [path: string, type: string][] = [
      ['/sitemap.xml', 'application/xml; charset=utf-8'],
      ['/robots.txt', 'text/plain; charset=utf-8'],
      ['/manifest.webmanifest', 'application/manifest+json; charset=utf-8'],
      ['/rss.xml', 'application/rss+xml; charset=utf-8'],
      ['/health/rss.xml', 'application/rss+xml; charset=utf-8'],
      ['/wealth/rss.xml', 'application/rss+xml; charset=utf-8'],
      ['/newsletter/rss.xml', 'application/rss+xml; charset=utf-8'],
    ];
    expect(files.map(([path]) => path).sort()).toEqual([...SITE_FILES].sort());
    // A topic's feed (its own location: every other name with a dot is a static file).
    files.push(['/topics/housing/rss.xml', 'application/rss+xml; charset=utf-8']);

    for (const [path, type] of files) {
      const response = await fetch(`${site}${path}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      // One Cache-Control, the app's (a minute: they follow what is published): nginx adds none.
      expect(response.headers.get('cache-control'), path).toBe('public, max-age=60');
      // The sitemap and feeds are gzipped (robots.txt is under gzip_min_length).
      if (path.endsWith('.xml'))
        expect(response.headers.get('content-encoding'), path).toBe('gzip');
      const body = await response.text();
      // SITE_URL is nginx's own address here: the app draws these files for this deployment.
      if (path === '/manifest.webmanifest') expect(JSON.parse(body).name).toBe('Cohort');
      else expect(body, path).toContain(`${site}/`);
      expect((await upstreamsFor(path)).length, path).toBe(1);
    }
  });

  it('passes the artwork and link previews the app draws from the content on to it', async () => {
    const html = await (await fetch(`${site}/health`)).text();
    const art = /src="(\/art\/[^"]+\.svg)"/.exec(html)?.[1];
    const preview = /<meta property="og:image" content="[^"]*(\/og\/[^"]+\.png)"/.exec(html)?.[1];
    if (!art || !preview) throw new Error('the page names no artwork or no preview');

    const svg = await fetch(`${site}${art}`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await svg.text()).toMatch(/^<svg/);

    const png = await fetch(`${site}${preview}`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');

    const missing = await fetch(`${site}/art/no-such-artwork-0000000000.svg`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('not_found');
  });

  it('sends an uploaded image itself from the uploads volume, and asks the app for one it lacks', async () => {
    if (!stack) throw new Error('no stack');
    const webp = await sharp({
      create: { width: 4, height: 3, channels: 3, background: '#3366cc' },
    })
      .webp()
      .toBuffer();
    // One only on nginx's volume (the app has no such file), one only in the app's UPLOADS_DIR.
    const onVolume = `${'a'.repeat(20)}-4x3.webp`;
    const inApp = `${'b'.repeat(20)}-4x3.webp`;
    await writeFile(join(stack.uploadsDir, onVolume), webp);
    await writeFile(join(appUploads, inApp), webp);
    for (const name of [onVolume, inApp]) {
      const response = await fetch(`${site}/uploads/${name}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type'), name).toBe('image/webp');
      expect(response.headers.get('cache-control'), name).toBe(
        'public, max-age=31536000, immutable',
      );
      expect(response.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(Buffer.from(await response.arrayBuffer()).equals(webp), name).toBe(true);
    }
    const missing = await fetch(`${site}/uploads/${'c'.repeat(20)}-4x3.webp`);
    expect(missing.status).toBe(404);
  });

  it('serves favicon.ico and apple-touch-icon.png as static files, not from the app', async () => {
    for (const [path, type] of [
      ['/favicon.ico', 'image/x-icon'],
      ['/apple-touch-icon.png', 'image/png'],
    ] as const) {
      const response = await fetch(`${site}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(response.headers.get('cache-control'), path).toBe('public, max-age=3600');
      expect(Buffer.from(await response.arrayBuffer())).toEqual(
        readFileSync(join(clientDir, path)),
      );
      const log = (await stack?.accessLog()) ?? '';
      expect(log.split('\n'), path).toContain(`GET ${path} - 200`);
    }
  });

  it('gives every answer its own request id, the one the app and the access log have', async () => {
    const forged = 'client-chosen-request-id';
    const api = await fetch(`${site}/api/config`, { headers: { 'x-request-id': forged } });
    const id = api.headers.get('x-request-id') ?? '';
    // One value (nginx's), not the client's, and not a second copy from the app.
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const file = await fetch(`${site}/favicon.ico`);
    const fileId = file.headers.get('x-request-id') ?? '';
    expect(fileId).toMatch(/^[0-9a-f]{32}$/);
    expect(fileId).not.toBe(id);
    await expect
      .poll(async () => (await stack?.siteAccessLog()) ?? '', { timeout: 5_000 })
      .toContain(` ${id}\n`);
    expect((await stack?.siteAccessLog()) ?? '').not.toContain(forged);
  });

  it('never lets /metrics out, though each app server answers it with the token', async () => {
    const headers = { authorization: `Bearer ${METRICS_TOKEN}` };
    const outside = await fetch(`${site}/metrics`, { headers });
    expect(outside.status).toBe(404);
    expect((await outside.json()).error.code).toBe('not_found');
    const inside = await fetch(`${stack?.apps[0]?.url}/metrics`, { headers });
    expect(inside.status).toBe(200);
    expect(await inside.text()).toContain('cohort_http_requests_total');
  });

  it('passes the health checks through to the app', async () => {
    expect((await fetch(`${site}/healthz`)).status).toBe(200);
    const ready = await fetch(`${site}/readyz`);
    expect(ready.status).toBe(200);
    // The start-up Stripe check ran against the fake Stripe and found the keys accepted.
    expect(await ready.json()).toMatchObject({ status: 'ready', payments: { state: 'ok' } });
  });
});

async function countStripeEvents(databaseUrl: string, id: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>(
      'SELECT count(*) FROM stripe_events WHERE id = $1',
      [id],
    );
    return Number(result.rows[0]?.count);
  } finally {
    await client.end();
  }
}
