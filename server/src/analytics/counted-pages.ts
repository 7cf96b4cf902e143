import type pg from 'pg';
import { authorPath } from '../../../contract/authors.js';
import { postPath, type PostKind } from '../../../contract/posts.js';
import type { SiteContent } from '../content/site-content.js';

/** A post with an address of its own, as the analytics name it. */
export interface PostAddress {
  id: number;
  path: string;
  title: string;
}

/**
 * Posts with an address of their own (articles, newsletter issues, pages) and where that address
 * is now; `published`: only those on the site now, else every post not deleted.
 */
export async function readPostAddresses(
  pool: pg.Pool,
  options: { published: boolean; ids?: readonly number[] },
): Promise<PostAddress[]> {
  const { rows } = await pool.query<{
    id: number;
    kind: PostKind;
    slug: string;
    title: string;
    category: string | null;
    sectionSlug: string | null;
  }>(
    `SELECT "id", "kind", "slug", "title", "fields"->>'category' AS "category",
            (SELECT s."slug" FROM "sections" s WHERE s."lists" = 'articles'
              AND s."name" = "fields"->>'category') AS "sectionSlug"
       FROM "posts"
      WHERE "deletedAt" IS NULL AND "kind" IN ('article', 'newsletter', 'page')
        AND ($1::boolean IS FALSE
             OR ("status" IN ('published', 'scheduled') AND "publishedAt" <= now()))
        AND ($2::int[] IS NULL OR "id" = ANY($2::int[]))`,
    [options.published, options.ids ?? null],
  );
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    path: postPath(
      { kind: row.kind, slug: row.slug, category: row.category },
      row.sectionSlug && row.category ? new Map([[row.category, row.sectionSlug]]) : undefined,
    ),
  }));
}

/**
 * The pages a view counts on, each with its post when it is one: every page the sitemap lists
 * (the home page, sections, posts, lists, topics, the newsletter's archive and issues, pages of
 * their own) and every author's page. Anything else (API paths, the desk, forms, unknown
 * addresses) counts nothing.
 */
export function countedPages(
  content: SiteContent,
  posts: readonly PostAddress[],
): Map<string, number | null> {
  const pages = new Map<string, number | null>();
  for (const page of content.index.pages) pages.set(page.path, null);
  for (const slug of content.authors.keys()) pages.set(authorPath(slug), null);
  for (const post of posts) if (pages.has(post.path)) pages.set(post.path, post.id);
  return pages;
}
