import { formatDate } from '../../../lib/format-date';
import { useArticleSectionPaths, useSectionColor } from '../../../lib/site-navigation';
import type { ArticleSummary } from '../types';
import { ContentCard } from './content-card';

export function ArticleCard({
  article,
  headingLevel,
  featured,
  priority,
}: {
  article: ArticleSummary;
  headingLevel?: 2 | 3;
  featured?: boolean;
  priority?: boolean;
}) {
  const sectionPathOf = useArticleSectionPaths();
  const tone = useSectionColor('articles', article.category);
  return (
    <ContentCard
      title={article.title}
      href={`${sectionPathOf(article.category)}/${article.slug}`}
      image={article.heroImage}
      tone={tone}
      eyebrow={`${article.category} · ${article.readingMinutes} min read`}
      summary={article.summary}
      footer={<time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>}
      headingLevel={headingLevel}
      featured={featured}
      priority={priority ?? featured}
      readers={article.membersOnly && (article.readers ?? 'Members only')}
    />
  );
}

/**
 * Articles as a grid of cards under a heading of the page's own (their titles are h3s);
 * `firstPriority`: the first card's image is fetched first, as it is high on the page.
 */
export function ArticleCardGrid({
  articles,
  firstPriority = false,
}: {
  articles: readonly ArticleSummary[];
  firstPriority?: boolean;
}) {
  return (
    <ul className="card-grid" role="list">
      {articles.map((article, index) => (
        <li key={article.id}>
          <ArticleCard article={article} headingLevel={3} priority={firstPriority && index === 0} />
        </li>
      ))}
    </ul>
  );
}
