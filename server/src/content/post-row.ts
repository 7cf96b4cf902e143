import type pg from 'pg';
import {
  kindSection,
  postPath,
  type PostJson,
  type PostKind,
  type PostStatus,
  type PostVisibility,
} from '../../../contract/posts.js';
import { DomainError } from '../domain-error.js';

/** A row of `posts` as the queries here select it. */
export interface PostRow {
  id: number;
  kind: PostKind;
  slug: string;
  status: PostStatus;
  visibility: PostVisibility;
  /** With visibility `tiers`: its tiers' slugs, in the tiers' order (else empty). */
  tiers: string[];
  /** The same tiers by id, as `posts."tierIds"` keeps them. */
  tierIds: number[];
  title: string;
  fields: Record<string, unknown>;
  body: string;
  publishedAt: Date | null;
  featureImage: string | null;
  featureImageAlt: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  version: number;
  updatedAt: Date;
  submittedAt: Date | null;
  /** Its authors' slugs in byline order (post_authors); absent where a query left them out. */
  authors?: string[];
  /**
   * An article's section's slug (its page is there), or the slug of the section listing a
   * campaign's, a boycott's or a resource list's kind (null: none lists it); absent where a query
   * left it out.
   */
  sectionSlug?: string | null;
}

/**
 * The columns of `posts` a post's JSON is made of, and its authors' slugs. The authors' subquery
 * names the post's "id" unqualified (`post_authors`, the one table beside it, has none; the
 * profile's slug is a subquery of its own), so it reads the same from `posts` and from a revision
 * read back as a row of `posts`.
 */
export const POST_COLUMNS = `"id", "kind", "slug", "status", "visibility", "title", "fields", "body",
  "publishedAt", "featureImage", "featureImageAlt", "seoTitle", "seoDescription", "version",
  "updatedAt", "submittedAt", coalesce("tierIds", ARRAY[]::int[]) AS "tierIds",
  ARRAY(SELECT t."slug" FROM "tiers" t WHERE t."id" = ANY("tierIds")
    ORDER BY t."position", t."id") AS "tiers",
  ARRAY(SELECT (SELECT ap."slug" FROM "author_profiles" ap WHERE ap."id" = pa."authorId")
    FROM "post_authors" pa WHERE pa."postId" = "id" ORDER BY pa."position") AS "authors",
  (SELECT s."slug" FROM "sections" s
    WHERE ("kind" = 'article' AND s."lists" = 'articles' AND s."name" = "fields"->>'category')
       OR s."lists" = CASE "kind" WHEN 'campaign' THEN 'campaigns' WHEN 'boycott' THEN 'boycotts'
                                  WHEN 'resources' THEN 'resources' END
    ORDER BY s."position", s."id" LIMIT 1) AS "sectionSlug"`;

/** The day of a timestamp, as the site's pages and files write dates (`2024-02-12`). */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Where a post is seen, by its section's slug as the row has it (else the samples' address). */
function pathOfRow(row: PostRow): string {
  const post = { kind: row.kind, slug: row.slug, category: row.fields.category };
  const lists = kindSection(row.kind);
  if (lists && row.sectionSlug !== undefined) {
    return postPath(post, undefined, new Map(row.sectionSlug ? [[lists, row.sectionSlug]] : []));
  }
  return postPath(
    post,
    row.sectionSlug ? new Map([[String(row.fields.category), row.sectionSlug]]) : undefined,
  );
}

/** A post's JSON (contract/posts.ts): its columns, then its kind's fields by their file names. */
export function postJson(row: PostRow): PostJson {
  return {
    ...row.fields,
    id: row.id,
    kind: row.kind,
    slug: row.slug,
    title: row.title,
    status: row.status,
    visibility: row.visibility,
    tiers: row.tiers,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    body: row.body,
    featureImage: row.featureImage,
    featureImageAlt: row.featureImageAlt,
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
    path: pathOfRow(row),
    submittedAt: row.submittedAt?.toISOString() ?? null,
    authors: row.authors ?? [],
  };
}

/** Whether the post is on the site now, or will be by itself (scheduled). */
export const isLiveOrScheduled = (row: Pick<PostRow, 'status'>) => row.status !== 'draft';

export const postNotFound = (id: number) =>
  new DomainError(404, 'post_not_found', `There is no post ${id}.`);

/** The post, unless it does not exist or was deleted; `lock` holds it for this transaction. */
export async function readPostRow(
  db: Pick<pg.Pool, 'query'>,
  id: number,
  lock = false,
): Promise<PostRow | null> {
  const { rows } = await db.query<PostRow & { deletedAt: Date | null }>(
    `SELECT ${POST_COLUMNS}, "deletedAt" FROM "posts" WHERE "id" = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [id],
  );
  const row = rows[0];
  return row && !row.deletedAt ? row : null;
}
