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
      membersOnly={article.membersOnly}
    />
  );
}
