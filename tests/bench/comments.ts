// A post with 2,000 comments (1,400 top comments, 600 replies, 9,000 likes, 500 commenters):
// GET /api/posts/:postId/comments through the real app (the pinned, a page of 20 top comments by
// a keyset cursor, their replies, the count, the viewer, the JSON) for each sort, its first page
// and pages deep in, as a visitor and as a member who liked some. Target: p95 < 50 ms.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { CommentList } from '../../contract/comments.js';
import { saveBenchResult } from '#test/bench-result';
import { buildMember } from '#test/factories';
import { describeTestDatabase } from '#test/postgres-cluster';
import { createTestApp } from '#test/test-app';

const TOP = 1_400;
const REPLIES = 600;
const COMMENTERS = 500;
const LIKES = 9_000;
const RUNS = Number(process.env.COMMENTS_BENCH_RUNS ?? 60);
const TARGET_MS = 50;

const bench = await createTestApp();
const { pool } = bench.database;
const seedStarted = performance.now();

// Other posts' comments beside it, as on a real site.
const {
  rows: [post],
} = await pool.query<{ id: number }>(
  `INSERT INTO posts (kind, slug, status, title, fields, body, "publishedAt", "updatedAt")
   VALUES ('article', 'talked-about', 'published', 'Talked about',
           '{"category": "Wealth", "summary": "S"}', 'Body.', now() - interval '1 day', now())
   RETURNING id`,
);
const postId = post?.id ?? 0;
await pool.query(
  `INSERT INTO posts (kind, slug, status, title, fields, body, "publishedAt", "updatedAt")
   SELECT 'article', 'other-' || n, 'published', 'Other ' || n, '{"category": "Wealth"}', 'B',
          now() - interval '2 days', now()
     FROM generate_series(1, 20) n`,
);
const member = await buildMember(bench, { paid: true });
const users: string[] = [member.userId];
await pool.query(
  `INSERT INTO users (id, email, "emailVerifiedAt", name, "updatedAt")
   SELECT gen_random_uuid(), 'commenter-' || n || '@example.com', now(), 'Commenter ' || n, now()
     FROM generate_series(1, $1::int) n`,
  [COMMENTERS - 1],
);
users.push(
  ...(
    await pool.query<{ id: string }>(`SELECT id FROM users WHERE email LIKE 'commenter-%'`)
  ).rows.map((row) => row.id),
);
const paragraph =
  'We met on the corner and agreed to **organise** the whole street before the rent rise. ' +
  'Bring a neighbour, bring a [leaflet](https://example.org/leaflet), bring tea.';
const html = `<p>${paragraph}</p>`;
const tops = Array.from({ length: TOP }, (_, n) => ({
  id: randomUUID(),
  userId: users[n % users.length],
  minutes: (TOP - n) * 5,
}));
const replies = Array.from({ length: REPLIES }, (_, n) => ({
  id: randomUUID(),
  parentId: tops[(n * 7) % TOP]?.id,
  userId: users[(n * 3) % users.length],
  minutes: (TOP - ((n * 7) % TOP)) * 5 - 1,
}));
await pool.query(
  `INSERT INTO comments (id, "postId", "userId", body, html, "createdAt")
   SELECT r.id, $1, r."userId", $2, $3, now() - make_interval(mins => r.minutes)
     FROM jsonb_to_recordset($4::jsonb) AS r(id uuid, "userId" uuid, minutes int)`,
  [postId, paragraph, html, JSON.stringify(tops)],
);
await pool.query(
  `INSERT INTO comments (id, "postId", "parentId", "userId", body, html, "createdAt")
   SELECT r.id, $1, r."parentId", r."userId", $2, $3, now() - make_interval(mins => r.minutes)
     FROM jsonb_to_recordset($4::jsonb) AS r(id uuid, "parentId" uuid, "userId" uuid, minutes int)`,
  [postId, paragraph, html, JSON.stringify(replies)],
);
// 9,000 likes spread over the comments (some liked by the member), counted on each comment.
await pool.query(
  `INSERT INTO comment_likes ("commentId", "userId")
   SELECT DISTINCT c.id, u.id
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM comments WHERE "postId" = $1) c
     JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM users) u
       ON u.n <= 1 + (c.n * 13) % 9
    LIMIT $2
   ON CONFLICT DO NOTHING`,
  [postId, LIKES],
);
await pool.query(
  `UPDATE comments c SET likes = l.n
     FROM (SELECT "commentId", count(*)::int AS n FROM comment_likes GROUP BY 1) l
    WHERE l."commentId" = c.id`,
);
// Comments under the other posts: 5,000 more rows in the same table.
await pool.query(
  `INSERT INTO comments (id, "postId", "userId", body, html, "createdAt")
   SELECT gen_random_uuid(), p.id, $2, 'Elsewhere', '<p>Elsewhere</p>',
          now() - make_interval(mins => n)
     FROM posts p CROSS JOIN generate_series(1, 250) n WHERE p.id <> $1`,
  [postId, member.userId],
);
await pool.query('ANALYZE comments; ANALYZE comment_likes; ANALYZE users');
const {
  rows: [counts],
} = await pool.query<{ comments: number; likes: number }>(
  `SELECT (SELECT count(*)::int FROM comments WHERE "postId" = $1) AS comments,
          (SELECT count(*)::int FROM comment_likes) AS likes`,
  [postId],
);
const seedSeconds = (performance.now() - seedStarted) / 1000;

/** The cursor of the page `pages` pages in, for `sort`. */
async function cursorAt(sort: string, pages: number): Promise<string> {
  let cursor = '';
  for (let page = 0; page < pages; page += 1) {
    const answer = await bench.app.inject({
      url: `/api/posts/${postId}/comments?sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`,
    });
    cursor = answer.json<CommentList>().nextCursor ?? '';
  }
  return cursor;
}

async function measure(url: string, cookie: string | null) {
  const timings: number[] = [];
  let shown = 0;
  for (let run = 0; run < RUNS + 5; run += 1) {
    const started = performance.now();
    const response = await bench.app.inject({
      url,
      headers: cookie ? { cookie } : {},
    });
    const ms = performance.now() - started;
    if (response.statusCode !== 200)
      throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    const list = response.json<Partial<CommentList>>();
    shown = (list.comments ?? []).reduce((sum, each) => sum + 1 + each.replies.length, 0);
    if (run >= 5) timings.push(ms); // the first few warm the plan cache and the pool
  }
  timings.sort((a, b) => a - b);
  const at = (p: number) => timings[Math.min(timings.length - 1, Math.floor(p * timings.length))];
  return { p50: at(0.5) ?? 0, p95: at(0.95) ?? 0, shown, all: timings };
}

const cases: [string, string, string | null][] = [];
for (const sort of ['newest', 'oldest', 'best']) {
  cases.push([`${sort}, first page, visitor`, `sort=${sort}`, null]);
  cases.push([`${sort}, first page, member`, `sort=${sort}`, member.cookie]);
}
for (const [sort, pages] of [
  ['newest', 35],
  ['newest', 69],
  ['best', 50],
] as const) {
  cases.push([
    `${sort}, page ${pages + 1}, member`,
    `sort=${sort}&cursor=${await cursorAt(sort, pages)}`,
    member.cookie,
  ]);
}

const rows: string[][] = [];
const everything: number[] = [];
for (const [name, query, cookie] of cases) {
  const { p50, p95, shown, all } = await measure(`/api/posts/${postId}/comments?${query}`, cookie);
  everything.push(...all);
  rows.push([name, String(shown), p50.toFixed(1), p95.toFixed(1)]);
  console.log(
    `  ${name.padEnd(32)} ${String(shown).padStart(3)} shown  p50 ${p50.toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms`,
  );
}
// What any request costs on this machine now (its load moves the figures above as much).
const baseline = await measure('/healthz', null);
rows.push(['baseline: GET /healthz', '', baseline.p50.toFixed(1), baseline.p95.toFixed(1)]);
console.log(
  `  ${'baseline: GET /healthz'.padEnd(32)}        p50 ${baseline.p50.toFixed(1).padStart(6)} ms  p95 ${baseline.p95.toFixed(1).padStart(6)} ms`,
);
everything.sort((a, b) => a - b);
const overall = everything[Math.floor(0.95 * everything.length)] ?? 0;
const database = await describeTestDatabase(bench.testDatabase);
const summary =
  `comments: a post with ${counts?.comments.toLocaleString('en')} comments, p95 over every page ` +
  `${overall.toFixed(1)} ms (target < ${TARGET_MS} ms: ${overall < TARGET_MS ? 'met' : 'NOT met'})`;
console.log(
  `database: ${database}; ${RUNS} runs each after 5 warm-up; ${counts?.likes.toLocaleString('en')} likes; seeded in ${seedSeconds.toFixed(1)} s`,
);
console.log(summary);
saveBenchResult({
  title: 'Comments of a post with 2,000 comments',
  summary,
  setup:
    `GET /api/posts/:postId/comments through the real app (app.inject) for a post with ` +
    `${TOP.toLocaleString('en')} top comments and ${REPLIES} replies by ${COMMENTERS} commenters, ` +
    `${counts?.likes.toLocaleString('en')} likes, beside 5,000 comments under 20 other posts: ` +
    `each sort's first page and pages deep in by cursor, as a visitor and as a member, ${RUNS} ` +
    `runs each after 5 warm-up runs.`,
  database,
  tables: [{ columns: ['page', 'comments shown', 'p50 ms', 'p95 ms'], rows }],
});
await bench.close();
