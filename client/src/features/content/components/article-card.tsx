import { categoryPath } from '../../../config/paths';
import { formatDate } from '../../../lib/format-date';
import { sectionTones } from '../sections';
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
  return (
    <ContentCard
      title={article.title}
      href={`${categoryPath(article.category)}/${article.slug}`}
      image={article.heroImage}
      tone={sectionTones[article.category]}
      eyebrow={`${article.category} · ${article.readingMinutes} min read`}
      summary={article.summary}
      footer={<time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>}
      headingLevel={headingLevel}
      featured={featured}
      priority={priority ?? featured}
    />
  );
}
