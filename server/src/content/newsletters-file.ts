import type { NewsletterArticle, NewsletterIssue } from '../../../contract/newsletters.js';
import { categoryPath } from '../../../contract/site-paths.js';
import type { LoadedContent } from './load-content.js';

/**
 * Every newsletter issue as the server reads it (contract/newsletters.ts): front matter, the body
 * as the same safe tree as articles', and each embedded article resolved to a card. Newest first.
 */
export function createNewslettersFile(content: Pick<LoadedContent, 'newsletters' | 'articles'>): {
  issues: NewsletterIssue[];
} {
  // An article that is not published (a draft, or one taken off the site) gets no card.
  const card = (slug: string): NewsletterArticle[] => {
    const article = content.articles.find((item) => item.data.slug === slug);
    if (!article) return [];
    const { title, summary, category } = article.data;
    return [{ slug, title, summary, path: `${categoryPath(category)}/${slug}` }];
  };
  const issues = content.newsletters
    .map(({ data, body }) => ({
      slug: data.slug,
      title: data.title,
      summary: data.summary,
      publishedAt: data.publishedAt,
      membersOnly: data.membersOnly,
      articles: data.articles.flatMap(card),
      sample: data.sample,
      body: body ?? { type: 'root' as const, children: [] },
    }))
    .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || a.slug.localeCompare(b.slug));
  return { issues };
}
