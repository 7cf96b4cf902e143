import type { PostKind } from './posts.js';
import type { ReadingRule } from './reading.js';

// Search (docs/decisions/0019-search.md): the page /search?q= (rendered by the server, so it works
// without JavaScript) and GET /api/search?q=&limit=, which answer the same results.

/** GET ?q=&limit= → SearchResults (200); a query too long → 400 `query_too_long`. */
export const SEARCH_API = '/api/search';

/** A longer query is refused (400): nobody types one, and the work a query costs stays bounded. */
export const MAX_QUERY_LENGTH = 200;
/** Words past these are not searched for. */
export const MAX_QUERY_WORDS = 8;
export const MAX_WORD_LENGTH = 40;

export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 50;

/** A piece of an excerpt: a matched word is marked. */
export interface ExcerptPart {
  text: string;
  match?: true;
}

export interface SearchResult {
  id: number;
  kind: PostKind;
  title: string;
  /** Where it is on the site: an article's or an issue's page, an item's place in its list. */
  path: string;
  /** What it is, for the reader: "Health", "Direct Action", "Newsletter"… */
  section: string;
  /** ISO date, where it has one that readers see. */
  publishedAt: string | null;
  /**
   * Its body is not everyone's (any visibility but `public`): found by its title, summary and
   * opening only, its excerpt drawn from its summary. `rule` and `unlock` say who reads it.
   */
  membersOnly?: true;
  /** Who may read its body whole (contract/reading.ts); left out for a public post. */
  rule?: ReadingRule;
  /** What unlocks it, in words: "Available on Founder" (unlockLabel); with `rule`. */
  unlock?: string;
  /** A few words around what matched, the matched words marked. */
  excerpt: ExcerptPart[];
}

export interface SearchResults {
  /** The query as searched (trimmed, at most MAX_QUERY_LENGTH characters). */
  query: string;
  results: SearchResult[];
}

/**
 * A query as typed, made safe to search for: control characters (NUL included) out, spaces
 * collapsed, trimmed. Null when it is too long.
 */
export function normalizeQuery(raw: string): string | null {
  const query = raw
    .normalize('NFKC')
    // eslint-disable-next-line no-control-regex -- control characters are what is taken out
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return query.length > MAX_QUERY_LENGTH ? null : query;
}

/** The words a query searches for: letters and digits, lower case, bounded in number and size. */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.slice(0, MAX_QUERY_WORDS).map((word) => word.slice(0, MAX_WORD_LENGTH));
}
