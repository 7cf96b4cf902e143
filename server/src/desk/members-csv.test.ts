import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember } from '#test/factories';
import { withSite, type Site } from '#test/with-site';
import { EXPORT_BATCH_SIZE, EXPORT_QUERY_MARK } from './members-csv.js';

// The members CSV of 100,000 users through the real app on a real port: it streams (the first
// bytes arrive after the first batch of rows was read, long before the last; the download comes
// in many chunks; memory stays flat) and no cell can run as a spreadsheet formula.

const USERS = 100_000;

/** V8's garbage collector, to measure what is still held rather than what is not yet collected. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const heapHeld = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};
const OWNER = 'csv-owner@example.com';

describe('the members CSV export', () => {
  let t: Site;
  let url: string;
  let cookie: string;
  let exportQueries = 0;

  beforeAll(async () => {
    t = await withSite({ env: { STAFF_EMAILS: OWNER } });
    ({ cookie } = await buildMember(t, { role: 'owner' }));
    // The rows are the test's, not the app's: written on a connection of their own, without the
    // app's 3.5 s statement timeout (100,000 rows can take longer on a busy machine).
    const seed = new pg.Client({ connectionString: t.testDatabase.url });
    await seed.connect();
    await seed.query(
      `INSERT INTO users (id, email, "createdAt", "updatedAt")
       SELECT gen_random_uuid(),
              CASE WHEN i % 3 = 0 THEN NULL ELSE 'reader' || i || '@example.com' END,
              now() - make_interval(secs => i), now()
       FROM generate_series(1, $1::int - 5) AS i`,
      [USERS],
    );
    // Emails a spreadsheet would otherwise run as formulas (an address may hold such characters).
    await seed.query(
      `INSERT INTO users (id, email, "createdAt", "updatedAt") VALUES
         (gen_random_uuid(), '=hyperlink("https://evil.example")@example.com', now(), now()),
         (gen_random_uuid(), '+1-202@example.com', now(), now()),
         (gen_random_uuid(), '-2+3@example.com', now(), now()),
         (gen_random_uuid(), '@sum(a1)@example.com', now(), now())`,
    );
    await seed.end();
    // Counts the export's queries as the app runs them (the pool is the app's own).
    const pool = t.database.pool;
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
      if (typeof args[0] === 'string' && args[0].startsWith(EXPORT_QUERY_MARK)) exportQueries += 1;
      return query(...args);
    };
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('streams 100,000 users in constant memory, header first, formulas escaped', async () => {
    const response = await fetch(`${url}/api/desk/exports/members`, { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="members-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');

    const batches = Math.ceil((USERS + 1) / EXPORT_BATCH_SIZE);
    let queriesAtFirstChunk: number | null = null;
    let chunks = 0;
    let bytes = 0;
    let text = '';
    let lines = 0;
    const heapAtStart = heapHeld();
    let heapPeak = heapAtStart;
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      queriesAtFirstChunk ??= exportQueries;
      chunks += 1;
      bytes += value.byteLength;
      const part = decoder.decode(value, { stream: true });
      lines += part.split('\n').length - 1;
      // Keep only the start and what names the formula rows: never the whole file.
      if (text.length < 2_000) text += part;
      else
        text += part
          .split('\n')
          .filter((line) => line.includes('@example.com') && /^[^,]+,"?'/.test(line))
          .join('\n');
      if (chunks % 25 === 0) heapPeak = Math.max(heapPeak, heapHeld());
    }

    expect(lines).toBe(USERS + 1); // the header, then every user (the owner too)
    expect(text.split('\n')[0]).toBe(
      'user_id,email,created_at,member_now,tier,plan,status,expires_at,stripe_customers,paid_cents,currency,newsletter',
    );
    // Streamed: the first bytes arrived after the first few batches were read, with ~100 to go
    // (built in memory, every batch would have been read before the first byte).
    expect(queriesAtFirstChunk).toBeLessThan(batches / 4);
    expect(exportQueries).toBe(batches);
    expect(chunks).toBeGreaterThan(50);
    // The file is about 9 MB; building it in memory would hold all of it, and every row object,
    // at once. Streamed, what the heap holds (after collecting garbage) stays far below the file.
    const growthMb = (heapPeak - heapAtStart) / 1024 ** 2;
    const fileMb = bytes / 1024 ** 2;
    console.log(
      `members CSV: ${fileMb.toFixed(1)} MB in ${chunks} chunks; heap held grew by at most ${growthMb.toFixed(1)} MB`,
    );
    expect(growthMb).toBeLessThan(fileMb / 2);

    expect(text).toContain(`,"'=hyperlink(""https://evil.example"")@example.com",`);
    expect(text).toContain(`,'+1-202@example.com,`);
    expect(text).toContain(`,'-2+3@example.com,`);
    expect(text).toContain(`,'@sum(a1)@example.com,`);
    expect(text).not.toMatch(/,=hyperlink/);
  }, 120_000);

  it('exports only what the list shows: the same search and filter', async () => {
    const response = await fetch(`${url}/api/desk/exports/members?q=reader12346%40`, {
      headers: { cookie },
    });
    const rows = (await response.text()).trim().split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(',reader12346@example.com,');
    const audit = await t.database.pool.query<{ action: string; after: unknown }>(
      `SELECT action, after FROM audit_log ORDER BY id`,
    );
    expect(audit.rows).toEqual([
      { action: 'members_export', after: { search: { q: null, filter: 'all' } } },
      { action: 'members_export', after: { search: { q: 'reader12346@', filter: 'all' } } },
    ]);
  });
});
