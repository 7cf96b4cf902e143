import { paths } from './site-paths.js';

// Topics: the tags a writer gives articles and campaigns (their `tags` field). Each tag has a page
// of its own, `/topics/<slug>`, with its posts, a description and an RSS feed.

/** Each topic's page, and its feed. */
export const topicPath = (slug: string) => `${paths.topics}/${slug}`;
export const topicFeedPath = (slug: string) => `${paths.topics}/${slug}/rss.xml`;

/** At most this many tags on one post. */
export const MAX_TAGS = 8;

/**
 * A tag's address: its name in lower case, every run of other characters a hyphen ("Student
 * debt" → `student-debt`, "Rent & housing" → `rent-housing`).
 */
export function topicSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A topic as its page and the topics list show it. */
export interface Topic {
  slug: string;
  /** The name as first written on the newest post that carries it. */
  name: string;
  description: string;
  /** How many published articles and campaigns carry it. */
  count: number;
}

/** The longest description a publisher may write for a topic. */
export const MAX_TOPIC_DESCRIPTION = 300;

/** What a topic's page says of it when nothing else is written. */
export const topicDescription = (name: string) =>
  `Articles and campaigns about ${name.toLowerCase()}, newest first.`;
