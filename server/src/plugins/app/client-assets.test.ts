import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SESSION_SECRET } from '#test/test-app';
import { withSite, type Site } from '#test/with-site';
import { createSessionTokens } from '../../sessions/session-token.js';
import { SESSION_COOKIE } from './sessions.js';
import { PRERENDER_SITE_URL } from '../../../../contract/prerendered.js';
import { clientDistDir, contentDir, ssrDistDir } from '../../paths.js';

// The real build (npm test builds before it runs these) and the shipped content, seeded.
const assets = join(clientDistDir, 'assets');
const script = readdirSync(assets).find((file) => file.endsWith('.js')) ?? 'none.js';
const scriptText = () => readFileSync(join(assets, script), 'utf8');

describe('serving the built client', () => {
  let testApp: Site;

  beforeAll(async () => {
    testApp = await withSite({
      clientDir: clientDistDir,
      ssrDir: ssrDistDir,
      seedContentDir: contentDir,
      env: { SITE_URL: 'https://members.example.org' },
    });
  });
  afterAll(async () => {
    await testApp?.close();
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
    expect(member.body).toMatch(/<html data-signed-in [^>]*lang="en"[^>]*>/);
    expect(member.headers.vary).toMatch(/Cookie/);
    for (const response of [await get(), await get(anonymous), await get(forged)]) {
      expect(response.statusCode).toBe(200);
      expect(response.body).toMatch(/<html [^>]*lang="en"[^>]*>/);
      expect(response.body).not.toMatch(/<html [^>]*data-signed-in/);
      // Each copy has its own validator: a reader who signs in gets the other copy, not a 304.
      expect(response.headers.etag).not.toBe(member.headers.etag);
    }
  });

  it('serves each page as its own HTML, with this site’s address, revalidated on every load', async () => {
    for (const [url, canonical] of [
      ['/', '/'],
      ['/health', '/health'],
      ['/health/building-social-connection', '/health/building-social-connection'],
      ['/health/building-social-connection?x=1', '/health/building-social-connection'],
    ] as const) {
      const response = await get(url, { accept: 'text/html' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toMatch(/<h1[^>]*>/);
      expect(response.body).toContain(
        `<link rel="canonical" href="https://members.example.org${canonical === '/' ? '' : canonical}`,
      );
      expect(response.body).not.toContain(PRERENDER_SITE_URL);
    }
  });

  it('sends each page compressed once at start: brotli, else gzip, else as it is', async () => {
    const brotli = await get('/health', { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/);
    const html = brotliDecompressSync(brotli.rawPayload).toString();
    expect(html).toContain('>Health</h1>');
    expect(html).toContain('href="https://members.example.org/health"');

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

  it('sends the same page again as a 304 to a reader who holds it', async () => {
    const first = await get('/health');
    const again = await get('/health', { 'if-none-match': `W/${String(first.headers.etag)}` });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('sends the build’s precompressed copy of an asset to a client that accepts it', async () => {
    const brotli = await get(`/assets/${script}`, { 'accept-encoding': 'gzip, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(scriptText());
    const gzip = await get(`/assets/${script}`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(scriptText());
  });

  it('answers an unknown address with the 404 page and a 404', async () => {
    for (const url of ['/nothing-here', '/health/no-such-article', '/pk']) {
      const response = await get(url, { accept: 'text/html' });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toMatch(/<h1[^>]*>Page not found<\/h1>/);
    }
  });

  it('answers the screens drawn in the browser with the shell, and old addresses with a 301', async () => {
    const account = await get('/account');
    expect(account.statusCode).toBe(200);
    expect(account.body).toContain('<div id="root"></div>');
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

  it('never redirects off the site, whatever the path', async () => {
    // Sent over a real socket, as written: a URL parser (inject's among them) would read `/\\host`
    // as `//host` before the app saw it. Browsers read `//host` and `/\\host` as another host.
    const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const rawGet = (path: string) =>
      new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path, method: 'GET' }, (response) => {
          response.resume();
          resolve({ status: response.statusCode ?? 0, location: response.headers.location });
        })
          .on('error', reject)
          .end();
      });
    for (const [from, to] of [
      ['//evil.example/', '/evil.example'],
      ['/\\evil.example/', '/evil.example'],
      ['///evil.example//', '/evil.example'],
      ['/\\/evil.example/', '/evil.example'],
      ['/%5Cevil.example/', '/%5Cevil.example'],
      ['//evil.example/health/', '/evil.example/health'],
    ] as const) {
      expect({ from, ...(await rawGet(from)) }).toEqual({ from, status: 301, location: to });
    }
  });

  it('serves hashed assets with a year of immutable caching', async () => {
    const response = await get(`/assets/${script}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe(scriptText());
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
