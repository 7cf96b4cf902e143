import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useImportDeps } from '#test/import-posts-target';
import { sample } from '#test/migration-samples';
import { runImport } from './run-import.js';

// WordPress's comments come with its posts (docs/migrating.md): the approved ones of the theme
// unit test in ../shared/migration-samples (pingbacks, trackbacks and those held for approval
// left out), each a named guest's comment on its date; a reply to a reply joins its thread (the
// site's comments nest one level); importing the file again adds nothing. Skipped, saying so,
// where the samples are absent.

const THEME_UNIT_TEST = sample('wordpress/theme-unit-test-data.xml');

interface CommentRow {
  id: string;
  parentId: string | null;
  guestName: string;
  body: string;
  createdAt: Date;
  importSource: string;
}

describe('WordPress comments', () => {
  const { pool, deps } = useImportDeps();

  /** The comments on the post with this slug, oldest first. */
  const commentsOn = async (slug: string) =>
    (
      await pool.query<CommentRow>(
        `SELECT c."id", c."parentId", c."guestName", c."body", c."createdAt", c."importSource"
          FROM "comments" c JOIN "posts" p ON p."id" = c."postId"
          WHERE p."slug" = $1 ORDER BY c."createdAt", c."importSource"`,
        [slug],
      )
    ).rows;

  it(
    'stores the theme unit test’s approved comments as guests’ comments, dates and threads kept, and nothing more the second time',
    { timeout: 120_000 },
    async (context) => {
      if (!existsSync(THEME_UNIT_TEST)) context.skip(`${THEME_UNIT_TEST} is not here`);
      const report = await runImport({ source: 'wordpress', path: THEME_UNIT_TEST }, deps);
      // 33 counted (spam and bin aside): 26 approved by readers; 3 held for approval, 4 pings.
      expect(report.comments).toEqual({ imported: 26, skipped: 7 });
      const { rows: all } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "comments" WHERE "importSource" LIKE 'wordpress:%'`,
      );
      expect(all[0]?.n).toBe(26);

      const comments = await commentsOn('template-comments');
      // 19 approved; Ken's and "auser"'s were waiting for approval, so they stay out.
      expect(comments).toHaveLength(19);
      const first = comments.find((comment) => comment.importSource.endsWith(':881'));
      expect(first).toMatchObject({
        guestName: 'John Γιάννης Doe Κάποιος',
        parentId: null,
        createdAt: new Date('2012-09-03T17:18:04Z'),
      });
      expect(first?.body).toContain('**Headings**');
      // Comment Depth 01 to 10: each answered the one before; here the nine replies are one thread
      // under the first.
      const top = comments.find((comment) => comment.importSource.endsWith(':904'));
      const thread = comments.filter((comment) => comment.parentId === top?.id);
      expect(thread).toHaveLength(9);
      expect(thread[0]).toMatchObject({
        guestName: 'Jane Bloggs',
        body: 'Comment Depth 02',
        createdAt: new Date('2013-03-14T15:01:21Z'),
      });
      expect(comments.filter((comment) => comment.parentId === null)).toHaveLength(10);

      // Pingbacks and trackbacks are not readers' comments.
      expect(await commentsOn('template-pingbacks-an-trackbacks')).toEqual([
        expect.objectContaining({ guestName: 'John Doe' }),
      ]);

      const again = await runImport({ source: 'wordpress', path: THEME_UNIT_TEST }, deps);
      expect(again.comments).toEqual({ imported: 26, skipped: 7 });
      expect(await commentsOn('template-comments')).toEqual(comments);
      const { rows: still } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "comments"`,
      );
      expect(still[0]?.n).toBe(26);
    },
  );
});
