import type { NewsletterArticle, NewsletterIssue } from '../../contract/newsletters.js';
import { categoryPath } from '../src/config/paths.js';
import type { LoadedContent } from './load-content.js';

/**
 * Every newsletter issue as the server reads it (contract/newsletters.ts): front matter, the body
 * as the same safe tree as articles', and each embedded article resolved to a card. Newest first.
 */
export function createNewslettersFile(content: Pick<LoadedContent, 'newsletters' | 'articles'>): {
  issues: NewsletterIssue[];
} {
  // The build has checked that each slug names an article (check-collections.ts).
  const card = (slug: string): NewsletterArticle => {
    const article = content.articles.find((item) => item.data.slug === slug);
    if (!article) throw new Error(`No article has the slug "${slug}"`);
    const { title, summary, category } = article.data;
    return { slug, title, summary, path: `${categoryPath(category)}/${slug}` };
  };
  const issues = content.newsletters
    .map(({ data, body }) => ({
      slug: data.slug,
      title: data.title,
      summary: data.summary,
      publishedAt: data.publishedAt,
      membersOnly: data.membersOnly,
      articles: data.articles.map(card),
      sample: data.sample,
      body: body ?? { type: 'root' as const, children: [] },
    }))
    .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || a.slug.localeCompare(b.slug));
  return { issues };
}
