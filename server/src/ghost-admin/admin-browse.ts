import type pg from 'pg';
import { PAGE_SCREENS } from '../../../contract/posts.js';
import { POST_COLUMNS, type PostRow } from '../content/post-row.js';
import { POST_FILTER_FIELDS } from '../ghost-api/content-index.js';
import { parseFilter, type FieldValues } from '../ghost-api/filter.js';
import { ghostTagsOf, ghostTypeOf, type GhostSite } from '../ghost-api/serializers.js';
import { ghostId } from '../imports/ghost-ids.js';
import { ghostVisibilityOf } from '../imports/ghost-visibility.js';
import type { GhostResource } from './admin-posts.js';

/**
 * The Admin API's `posts/` and `pages/` browse (docs/ghost-api.md#admin-api): every post of the
 * resource, whatever its status (drafts and scheduled ones too, unlike the Content API), filtered
 * with the Content API's filter language (ghost-api/filter.ts) over the same fields,
 * newest first (drafts by their last change), a page at a time.
 */

const KINDS: Record<GhostResource, string[]> = {
  posts: ['article', 'campaign', 'boycott', 'newsletter'],
  pages: ['page'],
};

function valuesOf(site: GhostSite, row: PostRow): FieldValues {
  const tags = ghostTagsOf(site, row);
  const authors = row.authors ?? [];
  return (field) => {
    switch (field) {
      case 'id':
        return [ghostId(site.siteUrl, 'post', row.id)];
      case 'slug':
        return [row.slug];
      case 'title':
        return [row.title];
      case 'tag':
      case 'tags':
      case 'tags.slug':
        return tags.map((tag) => tag.slug);
      case 'primary_tag':
      case 'primary_tag.slug':
        return [tags.find((tag) => tag.visibility === 'public')?.slug ?? null];
      case 'author':
      case 'authors':
      case 'authors.slug':
        return authors;
      case 'primary_author':
      case 'primary_author.slug':
        return [authors[0] ?? null];
      case 'featured':
        return ['false'];
      case 'visibility':
        return [ghostVisibilityOf(row.visibility)];
      case 'status':
        return [row.status];
      case 'published_at':
        return [row.publishedAt?.toISOString() ?? null];
      default:
        return [row.updatedAt.toISOString()];
    }
  };
}

/** A page of the resource's rows that pass the filter, and how many pass it in all. */
export async function browseAdminRows(
  db: Pick<pg.Pool, 'query'>,
  site: GhostSite,
  resource: GhostResource,
  query: { filter?: string; limit: number; page: number },
): Promise<{ rows: PostRow[]; total: number }> {
  const filter = query.filter ? parseFilter(query.filter, POST_FILTER_FIELDS) : null;
  const { rows } = await db.query<PostRow>(
    `SELECT ${POST_COLUMNS} FROM "posts"
      WHERE "kind" = ANY($1) AND "deletedAt" IS NULL AND NOT ("kind" = 'page' AND "slug" = ANY($2))
      ORDER BY coalesce("publishedAt", "updatedAt") DESC, "id" DESC`,
    [KINDS[resource], Object.keys(PAGE_SCREENS)],
  );
  const chosen = rows.filter(
    (row) => ghostTypeOf(row) !== null && (!filter || filter(valuesOf(site, row))),
  );
  const start = (query.page - 1) * query.limit;
  return { rows: chosen.slice(start, start + query.limit), total: chosen.length };
}
