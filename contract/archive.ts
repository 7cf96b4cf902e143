import { paths } from './site-paths.js';

// The archive: every published article by the month it came out (`/archive`, paged when long),
// one year's (`/archive/2013`) and one month's (`/archive/2013/01`). Old platforms' date
// addresses (WordPress's `/2013/01/`) lead here. Plain data and small functions: the server and
// the client read the same addresses.

/** How many articles one page of `/archive` lists; a year's or a month's page lists them all. */
export const ARCHIVE_PAGE_SIZE = 50;

/** What an archive address asks for, once read. */
export type ArchiveScope =
  | { kind: 'all'; page: number }
  | { kind: 'year'; year: string }
  | { kind: 'month'; year: string; month: string };

/** What the archive's screen draws besides its articles (contract/site-data.ts `archive`). */
export interface ArchiveView {
  scope: ArchiveScope;
  /** How many pages `/archive` has: the page links under the list. */
  pageCount: number;
  /** Every year with an article, newest first, and how many it has: the links to each. */
  years: { year: string; count: number }[];
}

/** `/archive`, `/archive/page/2`: the whole archive's pages, the first without a number. */
export const archivePagePath = (page: number) =>
  page <= 1 ? paths.archive : `${paths.archive}/page/${page}`;

/** `/archive/2013`, `/archive/2013/01`. */
export const archiveDatePath = (year: string, month?: string) =>
  month === undefined ? `${paths.archive}/${year}` : `${paths.archive}/${year}/${month}`;

/**
 * What an address under `/archive` asks for, or null where there is no such archive page: a page
 * number written otherwise than plainly (`/archive/page/01`, `/archive/page/1`), a month that is
 * not 01 to 12, anything more.
 */
export function readArchivePath(path: string): ArchiveScope | null {
  if (path === paths.archive) return { kind: 'all', page: 1 };
  if (!path.startsWith(`${paths.archive}/`)) return null;
  const rest = path.slice(paths.archive.length + 1).split('/');
  const [first = '', second, ...more] = rest;
  if (more.length > 0) return null;
  if (first === 'page') {
    if (second === undefined || !/^[1-9][0-9]{0,5}$/.test(second) || second === '1') return null;
    return { kind: 'all', page: Number(second) };
  }
  if (!/^[0-9]{4}$/.test(first)) return null;
  if (second === undefined) return { kind: 'year', year: first };
  if (!/^(0[1-9]|1[0-2])$/.test(second)) return null;
  return { kind: 'month', year: first, month: second };
}

/** The address of an archive page, from what it asks for. */
export function archivePathOf(scope: ArchiveScope): string {
  switch (scope.kind) {
    case 'all':
      return archivePagePath(scope.page);
    case 'year':
      return archiveDatePath(scope.year);
    case 'month':
      return archiveDatePath(scope.year, scope.month);
  }
}

/**
 * Items listed newest first, in runs of the same month (`2013-01`), in their order: what the
 * archive draws under each month's heading.
 */
export function groupByMonth<T extends { publishedAt: string }>(
  items: readonly T[],
): { month: string; items: T[] }[] {
  const groups: { month: string; items: T[] }[] = [];
  for (const item of items) {
    const month = item.publishedAt.slice(0, 7);
    const last = groups.at(-1);
    if (last?.month === month) last.items.push(item);
    else groups.push({ month, items: [item] });
  }
  return groups;
}

const monthFormat = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "January 2013" for `2013-01`, the same in every time zone (the server draws it too). */
export const monthLabel = (month: string) => monthFormat.format(new Date(`${month}-01T00:00:00Z`));
