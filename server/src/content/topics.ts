import type { ArticleSummary, Campaign } from '../../../contract/content-types.js';
import { topicDescription, topicSlug, type Topic } from '../../../contract/topics.js';

/** A topic with what carries it, newest first. */
export interface TopicEntry extends Topic {
  /** Whether a publisher wrote its description. */
  written: boolean;
  articles: ArticleSummary[];
  campaigns: Campaign[];
  /** The newest date of its posts: its page's lastmod. */
  lastmod: string;
}

/**
 * Every tag of the published articles and campaigns (lists newest first), by slug: named as the
 * newest post that carries it writes it, ordered by name.
 */
export function collectTopics(
  articles: readonly ArticleSummary[],
  campaigns: readonly Campaign[],
  /** What publishers wrote of topics, by slug (else the page's own sentence). */
  descriptions: ReadonlyMap<string, string> = new Map(),
): Map<string, TopicEntry> {
  const topics = new Map<string, TopicEntry>();
  const entry = (name: string, publishedAt: string) => {
    const slug = topicSlug(name);
    let topic = topics.get(slug);
    if (!topic) {
      topic = {
        slug,
        name,
        description: descriptions.get(slug) ?? topicDescription(name),
        count: 0,
        written: descriptions.has(slug),
        articles: [],
        campaigns: [],
        lastmod: publishedAt,
      };
      topics.set(slug, topic);
    }
    topic.count += 1;
    if (publishedAt > topic.lastmod) topic.lastmod = publishedAt;
    return topic;
  };
  // Newest first in, so the newest post's spelling names the topic.
  for (const article of articles) {
    for (const tag of article.tags ?? []) entry(tag, article.publishedAt).articles.push(article);
  }
  for (const campaign of campaigns) {
    for (const tag of campaign.tags ?? []) {
      entry(tag, campaign.publishedAt).campaigns.push(campaign);
    }
  }
  return new Map([...topics].sort(([, a], [, b]) => a.name.localeCompare(b.name)));
}

/** A topic as its page and the list show it, without its posts. */
export const topicOf = ({ slug, name, description, count }: TopicEntry): Topic => ({
  slug,
  name,
  description,
  count,
});

/** How many related articles an article's page offers under it. */
export const RELATED_ARTICLES = 3;

/**
 * The articles to read after `article`: those sharing most of its tags, then its section, newest
 * first among equals; never itself. Every article listed is published (the list is the site's).
 */
export function relatedArticles(
  article: ArticleSummary,
  articles: readonly ArticleSummary[],
): ArticleSummary[] {
  const tags = new Set((article.tags ?? []).map(topicSlug));
  const score = (other: ArticleSummary) =>
    2 * (other.tags ?? []).filter((tag) => tags.has(topicSlug(tag))).length +
    (other.category === article.category ? 1 : 0);
  return (
    articles
      .filter((other) => other.id !== article.id)
      .map((other, order) => ({ other, score: score(other), order }))
      .filter(({ score }) => score > 0)
      // Lists are newest first: among equal scores, the earlier one is the newer.
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, RELATED_ARTICLES)
      .map(({ other }) => other)
  );
}
