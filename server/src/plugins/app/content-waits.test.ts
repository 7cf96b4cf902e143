import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/test-app';
import { contentChanged } from '../../content/content-changes.js';
import { withTransaction, type Tx } from '../../db/transaction.js';
import { waitForAnnouncedChanges } from './content-waits.js';
import type { SiteContentSource } from './site-content-plugin.js';

// The content wait is declared on the route (`config: {changesContent: true}`) and done by one
// hook: a write's answer leaves once this server draws the generation the write announced. A
// route that announces a change without declaring it fails every test that calls it (a 500 naming
// it), so a write that forgets its wait cannot pass the suite; in production it is only logged.

/** Test routes: each makes a content change (or none) and answers the generation it made. */
function addWrites(app: FastifyInstance, waited: number[]) {
  const { waitFor } = app.siteContent;
  app.siteContent.waitFor = async (generation) => {
    if (generation !== null) waited.push(generation);
    await waitFor(generation);
  };
  const change = () => withTransaction(app.db.pool, (tx) => contentChanged(tx));
  const write = { access: 'anyone', changesState: true } as const;
  app.post('/test/declared', { config: { ...write, changesContent: true } }, async () => ({
    generation: await change(),
  }));
  app.post('/test/undeclared', { config: write }, async () => ({ generation: await change() }));
  app.post(
    '/test/declared-unchanged',
    { config: { ...write, changesContent: true } },
    async () => ({}),
  );
  app.post('/test/read-only', { config: write }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return {};
  });
}

describe('the content wait', () => {
  let t: TestApp;
  const waited: number[] = [];

  beforeAll(async () => {
    t = await createTestApp({ captureLogs: true, configure: (app) => addWrites(app, waited) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('holds the answer of a route that declares it until this server draws the change', async () => {
    waited.length = 0;
    const response = await t.app.inject({ method: 'POST', url: '/test/declared' });
    expect(response.statusCode, response.body).toBe(200);
    const { generation } = response.json() as { generation: number };
    expect(waited).toEqual([generation]);
  });

  it('answers at once a route that declares it and changed nothing', async () => {
    waited.length = 0;
    const response = await t.app.inject({ method: 'POST', url: '/test/declared-unchanged' });
    expect(response.statusCode).toBe(200);
    expect(waited).toEqual([]);
  });

  it('fails a route that announced a change without declaring it, naming it', async () => {
    waited.length = 0;
    const response = await t.app.inject({ method: 'POST', url: '/test/undeclared' });
    expect(response.statusCode).toBe(500);
    expect(response.json().error).toMatchObject({ code: 'undeclared_content_change' });
    expect(response.json().error.message).toContain('POST /test/undeclared');
    // The change is drawn all the same, and the mistake is in the log.
    expect(waited).toHaveLength(1);
    expect(
      t.logs().some((line) => line.level === 50 && line.msg.includes('/test/undeclared')),
    ).toBe(true);
  });

  it('keeps each request’s changes its own when requests run side by side', async () => {
    const [changed, reading] = await Promise.all([
      t.app.inject({ method: 'POST', url: '/test/declared' }),
      t.app.inject({ method: 'POST', url: '/test/read-only' }),
    ]);
    expect(changed.statusCode).toBe(200);
    expect(reading.statusCode, reading.body).toBe(200);
  });
});

describe('the content wait in production', () => {
  it('logs a route that announced a change without declaring it, and answers all the same', async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { stream: { write: (line: string) => lines.push(line) } } });
    const waited: (number | null)[] = [];
    app.decorate('siteContent', {
      waitFor: async (generation: number | null) => void waited.push(generation),
    } as Partial<SiteContentSource> as SiteContentSource);
    waitForAnnouncedChanges(app, { production: true });
    // A transaction's connection, as far as contentChanged needs one: generation 7.
    const tx = { query: async () => ({ rows: [{ generation: '7' }] }) } as unknown as Tx;
    app.post('/test/undeclared', async () => ({ generation: await contentChanged(tx) }));
    try {
      const response = await app.inject({ method: 'POST', url: '/test/undeclared' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ generation: 7 });
      expect(waited).toEqual([7]);
      expect(lines.some((line) => line.includes('/test/undeclared changed the site'))).toBe(true);
    } finally {
      await app.close();
    }
  });
});
