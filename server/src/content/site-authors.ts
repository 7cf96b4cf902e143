import {
  authorFeedPath,
  authorPath,
  type Author,
  type AuthorCredit,
} from '../../../contract/authors.js';
import type { ArticleSummary } from '../../../contract/content-types.js';
import type { SiteIndex } from '../../../contract/site-index.js';

/**
 * Authors on the site: each author of a published article has a page,
 * `/authors/<slug>`, listing their articles newest first, and a feed beside it; an author with no
 * published article has neither (their address is the 404 page), so a draft never makes a page.
 */

/** An author with their published articles, newest first. */
export interface AuthorEntry {
  author: Author;
  articles: ArticleSummary[];
  /** Their newest article's date: their page's lastmod. */
  lastmod: string;
}

/** A byline's names: the author's slug and name. */
export const creditOf = ({ slug, name }: Author): AuthorCredit => ({ slug, name });

/**
 * Every author of the articles (a list newest first), by slug, each with the articles that name
 * them; `profiles`: each article's authors' profiles, by article id.
 */
export function collectAuthors(
  articles: readonly ArticleSummary[],
  profiles: ReadonlyMap<number, readonly Author[]>,
): Map<string, AuthorEntry> {
  const authors = new Map<string, AuthorEntry>();
  for (const article of articles) {
    for (const author of profiles.get(article.id) ?? []) {
      let entry = authors.get(author.slug);
      if (!entry) {
        entry = { author, articles: [], lastmod: article.publishedAt };
        authors.set(author.slug, entry);
      }
      entry.articles.push(article);
      if (article.publishedAt > entry.lastmod) entry.lastmod = article.publishedAt;
    }
  }
  return authors;
}

/**
 * The site index with its authors: each article's (for JSON-LD and the feeds), every author's
 * page in the pages (the sitemap, and the pages the server draws) and their feeds.
 */
export function indexAuthors(
  index: SiteIndex,
  authors: ReadonlyMap<string, AuthorEntry>,
): SiteIndex {
  // Each article's credits in its own byline order (an article's slug is unique among articles).
  const credits = new Map<string, AuthorCredit[]>();
  for (const { articles } of authors.values()) {
    for (const article of articles) credits.set(article.slug, article.authors ?? []);
  }
  return {
    ...index,
    articles: index.articles.map((article) => {
      const byline = credits.get(article.slug) ?? [];
      return byline.length > 0
        ? {
            ...article,
            authors: byline.map(({ slug, name }) => ({ name, path: authorPath(slug) })),
          }
        : article;
    }),
    pages: [
      ...index.pages,
      ...[...authors.values()].map(({ author, lastmod }) => ({
        path: authorPath(author.slug),
        lastmod,
      })),
    ],
    authors: [...authors.values()].map(({ author }) => ({
      slug: author.slug,
      name: author.name,
      path: authorPath(author.slug),
      feedPath: authorFeedPath(author.slug),
    })),
  };
}
