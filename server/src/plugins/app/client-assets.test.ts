import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_SESSION_SECRET, type TestApp } from '#test/test-app';
import { createSessionTokens } from '../../sessions/session-token.js';
import { SESSION_COOKIE } from './sessions.js';
import {
  PAGES_ROUTES_FILE,
  PRERENDER_SITE_URL,
  type PrerenderedRoutes,
} from '../../../../contract/prerendered.js';

describe('serving the built client', () => {
  let dir: string;
  let testApp: TestApp;
  const page = (title: string) =>
    `<!doctype html><html lang="en"><title>${title}</title><link rel="canonical" href="${PRERENDER_SITE_URL}/x"><div id="root"><h1>${title}</h1></div>`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cohort-client-'));
    const client = join(dir, 'client');
    const pages = join(dir, 'pages');
    await mkdir(join(client, 'assets'), { recursive: true });
    await mkdir(join(pages, 'health'), { recursive: true });
    await writeFile(join(client, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(join(client, 'assets', 'index-abc123.js'), 'console.log("hi")');
    // What scripts/precompress.mjs writes beside a built file.
    await writeFile(join(client, 'assets', 'index-abc123.js.gz'), gzipSync('console.log("hi")'));
    await writeFile(
      join(client, 'assets', 'index-abc123.js.br'),
      brotliCompressSync('console.log("hi")'),
    );
    await writeFile(join(client, 'favicon.ico'), 'not really an icon');
    await writeFile(join(pages, 'index.html'), page('Home'));
    await writeFile(join(pages, 'health.html'), page('Health'));
    await writeFile(join(pages, 'health', 'sleep.html'), page('Sleep'));
    await writeFile(join(pages, '404.html'), page('Page not found'));
    await writeFile(join(pages, 'shell.html'), '<!doctype html><div id="root"></div>');
    const routes: PrerenderedRoutes = {
      pages: [
        { path: '/', file: 'index.html' },
        { path: '/health', file: 'health.html' },
        { path: '/health/sleep', file: 'health/sleep.html' },
      ],
      notFound: '404.html',
      shell: 'shell.html',
      browserOnly: ['/account'],
      redirects: [{ from: '/index', to: '/' }],
    };
    await writeFile(join(pages, PAGES_ROUTES_FILE), JSON.stringify(routes));
    testApp = await createTestApp({
      clientDir: client,
      pagesDir: pages,
      env: { SITE_URL: 'https://members.example.org' },
    });
  });
  afterAll(async () => {
    await testApp?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({ method: 'GET', url, headers });

  it('marks a page served to a signed-in reader, so its navbar says “Account” from the first paint', async () => {
    const tokens = createSessionTokens(TEST_SESSION_SECRET);
    const signedIn = `${SESSION_COOKIE}=${await tokens.sign(crypto.randomUUID(), 1, crypto.randomUUID())}`;
    const anonymous = `${SESSION_COOKIE}=${await tokens.sign(crypto.randomUUID(), 0)}`;
    const forged = `${SESSION_COOKIE}=${(await tokens.sign(crypto.randomUUID(), 1, crypto.randomUUID())).slice(0, -2)}xx`;
    const get = (cookie?: string) =>
      testApp.app.inject({ url: '/health', headers: cookie ? { cookie } : {} });

    const member = await get(signedIn);
    expect(member.statusCode).toBe(200);
    expect(member.body).toMatch(/<html data-signed-in [^>]*lang="en">/);
    expect(member.headers.vary).toMatch(/Cookie/);
    for (const response of [await get(), await get(anonymous), await get(forged)]) {
      expect(response.statusCode).toBe(200);
      expect(response.body).toMatch(/<html [^>]*lang="en">/);
      expect(response.body).not.toContain('data-signed-in');
      // Each copy has its own validator: a reader who signs in gets the other copy, not a 304.
      expect(response.headers.etag).not.toBe(member.headers.etag);
    }
  });

  it('serves each page as its own HTML, with this site’s address, revalidated on every load', async () => {
    for (const [url, title] of [
      ['/', 'Home'],
      ['/health', 'Health'],
      ['/health/sleep', 'Sleep'],
      ['/health/sleep?x=1', 'Sleep'],
    ] as const) {
      const response = await get(url, { accept: 'text/html' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain(`<h1>${title}</h1>`);
      expect(response.body).toContain('href="https://members.example.org/x"');
      expect(response.body).not.toContain(PRERENDER_SITE_URL);
    }
  });

  it('sends each page compressed once at start: brotli, else gzip, else as it is', async () => {
    const brotli = await get('/health', { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/);
    const html = brotliDecompressSync(brotli.rawPayload).toString();
    expect(html).toContain('<h1>Health</h1>');
    expect(html).toContain('href="https://members.example.org/x"');

    const gzip = await get('/health', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(html);

    const plain = await get('/health', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(html);

    const missing = await get('/no-such-page', { 'accept-encoding': 'gzip' });
    expect(missing.statusCode).toBe(404);
    expect(gunzipSync(missing.rawPayload).toString()).toContain('Page not found');
  });

  it('sends the build’s precompressed copy of an asset to a client that accepts it', async () => {
    const brotli = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe('console.log("hi")');
    const gzip = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log("hi")');
  });

  it('answers an unknown address with the 404 page and a 404', async () => {
    for (const url of ['/nothing-here', '/health/no-such-article', '/pk']) {
      const response = await get(url, { accept: 'text/html' });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<h1>Page not found</h1>');
    }
  });

  it('answers the screens drawn in the browser with the shell, and old addresses with a 301', async () => {
    const account = await get('/account');
    expect(account.statusCode).toBe(200);
    expect(account.body).toBe('<!doctype html><div id="root"></div>');
    for (const [from, to] of [
      ['/index', '/'],
      ['/index.html', '/'],
      ['/health/', '/health'],
    ] as const) {
      const response = await get(from);
      expect(response.statusCode, from).toBe(301);
      expect(response.headers.location).toBe(to);
    }
  });

  it('serves hashed assets with a year of immutable caching', async () => {
    const response = await get('/assets/index-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe('console.log("hi")');
  });

  it('serves other public files with a short cache', async () => {
    const response = await get('/favicon.ico');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers unknown API paths with a JSON 404, not the page', async () => {
    for (const url of ['/api/nothing-here', '/api', '/webhooks/unknown']) {
      const response = await get(url, { accept: 'text/html' });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({
        error: { code: 'not_found', message: `No such resource: GET ${url}` },
      });
    }
    const post = await testApp.app.inject({ method: 'POST', url: '/health', payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it('answers a missing file or a path-traversal attempt with 404', async () => {
    for (const url of [
      '/assets/missing-123.js',
      '/../package.json',
      '/assets/..%2f..%2fpackage.json',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('"name": "cohort"');
    }
  });
});
