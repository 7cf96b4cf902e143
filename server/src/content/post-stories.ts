import { bodyKey } from '../../../contract/site-data.js';
import type { MarkdownTree } from '../../../contract/markdown-tree.js';
import type { PublishedPost } from './published-content.js';

/** A campaign's or a boycott's story as the site keeps it: as anyone reads it, and as members do. */
export interface PostStory {
  /** What anyone may read: a members-only story's opening only. */
  body: MarkdownTree;
  /** A members-only story whole, for members alone (server only). */
  memberBody?: MarkdownTree;
}

/**
 * The stories behind the published campaigns and boycotts (their bodies: docs/publishing.md, "Writing and publishing"), by body key
 * (`campaign/<slug>`, `boycott/<slug>`); one without a body has none. A members-only one keeps
 * its opening apart from the whole.
 */
export function collectStories(posts: readonly PublishedPost[]): Map<string, PostStory> {
  const stories = new Map<string, PostStory>();
  for (const { row, body, teaser } of posts) {
    if ((row.kind !== 'campaign' && row.kind !== 'boycott') || !body) continue;
    stories.set(
      bodyKey(row.kind, row.slug),
      teaser ? { body: teaser, memberBody: body } : { body },
    );
  }
  return stories;
}
