import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/test-app';

describe('serving the built client', () => {
  let dir: string;
  let testApp: TestApp;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cohort-client-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(
      join(dir, 'index.html'),
      '<!doctype html><title>Cohort</title><div id="root"></div>',
    );
    await writeFile(join(dir, 'assets', 'index-abc123.js'), 'console.log("hi")');
    await writeFile(join(dir, 'favicon.ico'), 'not really an icon');
    testApp = await createTestApp({ clientDir: dir });
  });
  afterAll(async () => {
    await testApp?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({ method: 'GET', url, headers });

  it('serves index.html at / and for every client route, never cached without revalidation', async () => {
    for (const url of ['/', '/health', '/wealth/index-funds-explained', '/early-access?x=1']) {
      const response = await get(url, { accept: 'text/html' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
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
