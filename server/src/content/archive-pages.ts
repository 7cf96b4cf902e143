import {
  ARCHIVE_PAGE_SIZE,
  archiveDatePath,
  archivePagePath,
  readArchivePath,
} from '../../../contract/archive.js';
import type { ArticleSummary } from '../../../contract/content-types.js';
import type { SiteData } from '../../../contract/site-data.js';
import type { SiteIndex } from '../../../contract/site-index.js';

// The archive's pages (contract/archive.ts) from the published articles: which exist, for the
// sitemap and the not-found page, and what each one lists.

type Dated = Pick<ArticleSummary, 'publishedAt'>;

/**
 * Every archive page there is, with the newest date of what it lists: the whole archive's pages
 * (`/archive` even when nothing is published yet), each year and each month with an article.
 * `articles`: newest first.
 */
export function archivePages(articles: readonly Dated[]): SiteIndex['pages'] {
  const newest = articles[0]?.publishedAt ?? null;
  const pages: SiteIndex['pages'] = [];
  const count = Math.max(1, Math.ceil(articles.length / ARCHIVE_PAGE_SIZE));
  for (let page = 1; page <= count; page += 1) {
    const first = articles[(page - 1) * ARCHIVE_PAGE_SIZE]?.publishedAt ?? newest;
    pages.push({ path: archivePagePath(page), lastmod: first });
  }
  const seen = new Set<string>();
  for (const { publishedAt } of articles) {
    // Newest first: the first article of a year or a month is its newest.
    for (const path of [
      archiveDatePath(publishedAt.slice(0, 4)),
      archiveDatePath(publishedAt.slice(0, 4), publishedAt.slice(5, 7)),
    ]) {
      if (seen.has(path)) continue;
      seen.add(path);
      pages.push({ path, lastmod: publishedAt });
    }
  }
  return pages;
}

/**
 * What the archive page at `path` lists: its articles, newest first, as every list shows them (a
 * restricted one by its title and summary, with its badge, as the home page does), and the years
 * to move between. Nothing for an address that is no archive page, or a year or month without an
 * article: the screen then draws the not-found page, as the server answers it.
 */
export function archiveData(articles: readonly ArticleSummary[], path: string): SiteData {
  const scope = readArchivePath(path);
  if (!scope) return {};
  const pageCount = Math.max(1, Math.ceil(articles.length / ARCHIVE_PAGE_SIZE));
  let listed: ArticleSummary[];
  switch (scope.kind) {
    case 'all':
      if (scope.page > pageCount) return {};
      listed = articles.slice((scope.page - 1) * ARCHIVE_PAGE_SIZE, scope.page * ARCHIVE_PAGE_SIZE);
      break;
    case 'year':
      listed = articles.filter((article) => article.publishedAt.startsWith(`${scope.year}-`));
      break;
    case 'month':
      listed = articles.filter((article) =>
        article.publishedAt.startsWith(`${scope.year}-${scope.month}-`),
      );
      break;
  }
  if (scope.kind !== 'all' && listed.length === 0) return {};
  const years = new Map<string, number>();
  for (const { publishedAt } of articles) {
    const year = publishedAt.slice(0, 4);
    years.set(year, (years.get(year) ?? 0) + 1);
  }
  return {
    archive: {
      scope,
      pageCount,
      years: [...years].map(([year, count]) => ({ year, count })),
    },
    articles: listed,
  };
}
