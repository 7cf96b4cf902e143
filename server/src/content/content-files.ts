import type { MarkdownTree } from '../../../contract/markdown-tree.js';
import type { NewsletterFrontMatter } from '../../../contract/newsletters.js';
import type {
  ArticleFrontMatter,
  BoycottFrontMatter,
  CampaignFrontMatter,
  PageFrontMatter,
  PostFileColumns,
  ResourceGroupFrontMatter,
} from '../../../contract/post-fields.js';
import type { Perk } from '../../../contract/perks.js';

// What reading a content folder gives (load-content.ts reads it, check-collections.ts checks it).

/**
 * A file of a content folder as read to import it (post-files.ts); the site itself is drawn from
 * the posts' rows (published-content.ts, site-content.ts), never from this shape.
 */
export interface ContentFile<T> {
  /** Where it came from, as the error report names it: `content/articles/sleep-debt-reset.md`. */
  file: string;
  /** The file name without `.md`. */
  name: string;
  data: T;
  body: MarkdownTree | null;
  /** The body as written. */
  markdown: string;
  /**
   * What a post's file says of the columns every post has (who reads it, its feature image, its
   * search fields…), each absent where it says nothing. Absent for perks.
   */
  columns?: PostFileColumns;
}

export interface LoadedContent {
  articles: ContentFile<ArticleFrontMatter>[];
  campaigns: ContentFile<CampaignFrontMatter>[];
  boycotts: ContentFile<BoycottFrontMatter>[];
  resourceGroups: ContentFile<ResourceGroupFrontMatter>[];
  pages: ContentFile<PageFrontMatter>[];
  perks: ContentFile<Perk>[];
  newsletters: ContentFile<NewsletterFrontMatter>[];
  /** Every file read, so a dev server can watch them. */
  files: string[];
}
