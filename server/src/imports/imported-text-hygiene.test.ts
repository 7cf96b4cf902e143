import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleOf, sourcePost, useImportTarget } from '#test/import-posts-target';

// An imported title, tag or author name goes through the site's one text rule
// (contract/text-hygiene.ts): no right-to-left override, zero-width or control character survives
// the import, so nothing imported shows differently from what it says.

describe('text an import writes', () => {
  const target = useImportTarget();
  let pool: pg.Pool;
  beforeAll(() => ({ pool } = target));

  it('removes bidirectional overrides and invisible characters from titles, tags and authors', async () => {
    await target.write(
      bundleOf([
        sourcePost({
          sourceId: 'rtl',
          slug: 'spoofed',
          title: 'Invoice\u202e fdp.exe\u202c \u200bnow\tdue',
          tags: ['Fin\u200bance\u202e'],
          authors: [{ name: 'Ann\u2066 Writer\u2069\u0007' }],
        }),
      ]),
    );
    const { rows } = await pool.query<{ title: string; tags: string[] }>(
      `SELECT "title", "fields"->'tags' AS "tags" FROM "posts" WHERE "slug" = 'spoofed'`,
    );
    expect(rows[0]).toEqual({ title: 'Invoice fdp.exe now due', tags: ['Finance'] });
    const { rows: authors } = await pool.query<{ name: string }>(
      `SELECT "name" FROM "author_profiles" ORDER BY "name"`,
    );
    expect(authors.map((author) => author.name)).toContain('Ann Writer');
    expect(authors.some((author) => /[\u202a-\u202e\u2066-\u2069\u200b]/.test(author.name))).toBe(
      false,
    );
  });
});
