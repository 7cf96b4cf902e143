import { beforeAll, describe, expect, it } from 'vitest';
import { ARTICLE, useDeskPostsSite } from '#test/desk-posts-site';

// The desk's posts list (docs/publishing.md, "Writing and publishing"): GET /api/desk/posts?status=&kind=&q=&limit=&cursor= answers
// {posts, nextCursor}, 50 at a time unless `limit` says (up to 500), newest change first; a page's
// nextCursor opens the next one, and is null on the last.

interface Listed {
  posts: { id: number; slug: string; kind: string; status: string }[];
  nextCursor: string | null;
}

describe('the desk’s posts list, page by page', () => {
  const { call, owner, writer, t } = useDeskPostsSite();

  // 130 drafts (a new site has no post), 60 of them changed at the same instant: pages must
  // tell them apart by id.
  beforeAll(async () => {
    await t.database.pool.query(
      `INSERT INTO "posts" ("kind", "slug", "title", "fields", "body", "updatedAt")
        SELECT 'article', 'listed-' || n, 'Listed ' || n, '{"category": "Wealth"}', 'Text.',
            CASE WHEN n <= 60 THEN timestamptz '2026-03-01 12:00:00+00'
                 ELSE timestamptz '2026-03-01 12:00:00+00' + n * interval '1 second' END
          FROM generate_series(1, 130) n`,
    );
  });

  /** Every page of a list from its first, following nextCursor. */
  async function walk(query: string): Promise<Listed[]> {
    const pages: Listed[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/desk/posts?${query}${cursor ? `&cursor=${cursor}` : ''}`;
      const answer = await call(owner, 'GET', url);
      expect(answer.statusCode, answer.body).toBe(200);
      const page = answer.json<Listed>();
      pages.push(page);
      cursor = page.nextCursor;
      expect(pages.length).toBeLessThan(50);
    } while (cursor);
    return pages;
  }

  it('gives 50 posts a page by default and every post once across the pages, in order', async () => {
    const { rows } = await t.database.pool.query<{ id: number }>(
      `SELECT "id" FROM "posts" WHERE "deletedAt" IS NULL ORDER BY "updatedAt" DESC, "id" DESC`,
    );
    expect(rows.length).toBe(130);
    const pages = await walk('');
    expect(pages.slice(0, -1).map((page) => page.posts.length)).toEqual(
      pages.slice(0, -1).map(() => 50),
    );
    expect(pages.at(-1)?.posts.length).toBe(rows.length - 50 * (pages.length - 1));
    expect(pages.at(-1)?.nextCursor).toBeNull();
    const listed = pages.flatMap((page) => page.posts.map((post) => post.id));
    expect(listed).toEqual(rows.map((row) => row.id));
  });

  it('takes a limit up to 500: one page holds the whole list and has no next', async () => {
    const whole = await call(owner, 'GET', '/api/desk/posts?limit=500');
    expect(whole.statusCode).toBe(200);
    const page = whole.json<Listed>();
    const { rows } = await t.database.pool.query<{ count: string }>(
      `SELECT count(*) FROM "posts" WHERE "deletedAt" IS NULL`,
    );
    expect(page.posts.length).toBe(Number(rows[0]?.count));
    expect(page.nextCursor).toBeNull();
  });

  it('keeps its filters from page to page', async () => {
    const pages = await walk('q=listed&status=draft&kind=article&limit=40');
    expect(pages.map((page) => page.posts.length)).toEqual([40, 40, 40, 10]);
    const slugs = pages.flatMap((page) => page.posts.map((post) => post.slug));
    expect(new Set(slugs).size).toBe(130);
    expect(slugs.every((slug) => slug.startsWith('listed-'))).toBe(true);
  });

  it('neither repeats nor skips a post when one is written between two pages', async () => {
    const first = (await call(owner, 'GET', '/api/desk/posts?q=listed&limit=20')).json<Listed>();
    expect(first.nextCursor).not.toBeNull();
    const written = await call(writer, 'POST', '/api/desk/posts', {
      ...ARTICLE,
      title: 'Listed meanwhile',
      slug: 'listed-meanwhile',
    });
    expect(written.statusCode, written.body).toBe(201);
    const second = (
      await call(owner, 'GET', `/api/desk/posts?q=listed&limit=20&cursor=${first.nextCursor}`)
    ).json<Listed>();
    const { rows } = await t.database.pool.query<{ id: number }>(
      `SELECT "id" FROM "posts" WHERE "slug" LIKE 'listed-%' AND "slug" <> 'listed-meanwhile'
        ORDER BY "updatedAt" DESC, "id" DESC LIMIT 40`,
    );
    expect([...first.posts, ...second.posts].map((post) => post.id)).toEqual(
      rows.map((row) => row.id),
    );
    // A new first page starts with it.
    const again = (await call(owner, 'GET', '/api/desk/posts?q=listed&limit=1')).json<Listed>();
    expect(again.posts.map((post) => post.slug)).toEqual(['listed-meanwhile']);
  });

  it('answers a cursor it did not make with 400 naming it, whatever its shape', async () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const cases = [
      'not-a-cursor',
      encode({ updatedAt: '2026-03-01T12:00:00.000Z', id: 3 }),
      encode(['2026-03-01T12:00:00.000Z']),
      encode(['not a date', 3]),
      encode(['2026-03-01T12:00:00.000Z', 'three']),
      encode(['2026-03-01T12:00:00.000Z', -1]),
      encode(['2026-03-01T12:00:00.000Z', 1.5]),
      'x'.repeat(201),
    ];
    for (const cursor of cases) {
      const refused = await call(owner, 'GET', `/api/desk/posts?cursor=${cursor}`);
      expect(refused.statusCode, cursor).toBe(400);
      expect(refused.json().error.message, cursor).toMatch(/cursor/);
    }
  });
});
