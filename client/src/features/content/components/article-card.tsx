import { formatDate } from '../../../lib/format-date';
import { useArticleSectionPaths } from '../../../lib/site-navigation';
import { articleTone } from '../sections';
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
  return (
    <ContentCard
      title={article.title}
      href={`${sectionPathOf(article.category)}/${article.slug}`}
      image={article.heroImage}
      tone={articleTone(article.category)}
      eyebrow={`${article.category} · ${article.readingMinutes} min read`}
      summary={article.summary}
      footer={<time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>}
      headingLevel={headingLevel}
      featured={featured}
      priority={priority ?? featured}
      membersOnly={article.membersOnly}
    />
  );
}
