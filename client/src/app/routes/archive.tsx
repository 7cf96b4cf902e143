import {
  archiveDatePath,
  archivePagePath,
  groupByMonth,
  monthLabel,
  type ArchiveScope,
  type ArchiveView,
} from '../../../../contract/archive';
import type { ArticleSummary } from '../../../../contract/content-types';
import { BackLink, PageMasthead } from '../../components/page-masthead';
import { paths } from '../../config/paths';
import { formatDate } from '../../lib/format-date';
import { useDocumentHead } from '../../lib/document-head';
import { Link } from '../../lib/router';
import { useSiteData } from '../../lib/site-data';
import { useArticleSectionPaths } from '../../lib/site-navigation';
import NotFoundRoute from './not-found';

/**
 * /archive: every published article by month, newest first, in pages; /archive/<yyyy> a year's,
 * /archive/<yyyy>/<mm> a month's. A year or month with nothing, or an address that is no archive
 * page, is the 404 page (the server sends no `archive` for it).
 */
export default function ArchiveRoute() {
  const { archive, articles = [] } = useSiteData();
  if (!archive) return <NotFoundRoute />;
  return <ArchiveScreen archive={archive} articles={articles} />;
}

/** The page's title and what it says it lists. */
function describe(scope: ArchiveScope): { title: string; lede: string } {
  switch (scope.kind) {
    case 'all':
      return {
        title: scope.page > 1 ? `Archive, page ${scope.page}` : 'Archive',
        lede: 'Every article, newest first, by the month it came out.',
      };
    case 'year':
      return { title: scope.year, lede: `Every article of ${scope.year}, newest first.` };
    case 'month': {
      const month = monthLabel(`${scope.year}-${scope.month}`);
      return { title: month, lede: `Every article of ${month}, newest first.` };
    }
  }
}

function ArchiveScreen({
  archive,
  articles,
}: {
  archive: ArchiveView;
  articles: readonly ArticleSummary[];
}) {
  const { scope, pageCount, years } = archive;
  const { title, lede } = describe(scope);
  useDocumentHead(title, lede);
  const sectionPathOf = useArticleSectionPaths();
  const back =
    scope.kind === 'month' ? (
      <BackLink to={archiveDatePath(scope.year)}>{scope.year}</BackLink>
    ) : scope.kind === 'year' ? (
      <BackLink to={paths.archive}>The whole archive</BackLink>
    ) : undefined;
  return (
    <>
      <PageMasthead eyebrow="Archive" title={title} lede={lede} before={back} />
      <div className="page-body archive">
        {years.length > 0 && (
          <nav aria-label="Years" className="archive__years">
            <ul className="link-list" role="list">
              {years.map(({ year, count }) => (
                <li key={year}>
                  <Link
                    to={archiveDatePath(year)}
                    aria-current={scope.kind !== 'all' && scope.year === year ? 'page' : undefined}
                  >
                    {year}{' '}
                    <span className="topic-list__count">
                      {count}
                      <span className="visually-hidden">
                        {' '}
                        {count === 1 ? 'article' : 'articles'}
                      </span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        {articles.length === 0 && <p>Nothing is published yet.</p>}
        {groupByMonth(articles).map(({ month, items }) => (
          <section key={month} aria-labelledby={`archive-${month}`} className="archive__month">
            <h2 id={`archive-${month}`}>
              {scope.kind === 'month' ? (
                monthLabel(month)
              ) : (
                <Link to={archiveDatePath(month.slice(0, 4), month.slice(5, 7))}>
                  {monthLabel(month)}
                </Link>
              )}
            </h2>
            <ul className="archive__list" role="list">
              {items.map((article) => (
                <li key={article.id} className="archive__item">
                  <time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>
                  <Link to={`${sectionPathOf(article.category)}/${article.slug}`}>
                    {article.title}
                  </Link>
                  <span className="archive__section">{article.category}</span>
                  {article.membersOnly && (
                    <span className="members-badge">{article.readers ?? 'Members only'}</span>
                  )}
                </li>
              ))}
            </ul>
          </section>
        ))}
        {scope.kind === 'all' && pageCount > 1 && (
          <nav aria-label="Archive pages" className="archive__pages">
            <ul className="link-list" role="list">
              {Array.from({ length: pageCount }, (_, at) => at + 1).map((page) => (
                <li key={page}>
                  <Link
                    to={archivePagePath(page)}
                    aria-current={page === scope.page ? 'page' : undefined}
                  >
                    <span className="visually-hidden">Page </span>
                    {page}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>
    </>
  );
}
