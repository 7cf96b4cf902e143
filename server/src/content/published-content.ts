import type pg from 'pg';
import type {
  ArticleFrontMatter,
  BoycottFrontMatter,
  CampaignFrontMatter,
  PageFrontMatter,
  ResourceGroupFrontMatter,
} from '../../../contract/post-fields.js';
import type { NewsletterFrontMatter } from '../../../contract/newsletters.js';
import type { MarkdownTree } from '../../../contract/markdown-tree.js';
import type { Perk } from '../../../contract/perks.js';
import { POST_FOLDERS, splitAtDivider } from '../../../contract/posts.js';
import type { ContentFile, LoadedContent } from './load-content.js';
import { convertMarkdownToTree } from './markdown-to-tree.js';
import { isoDay, POST_COLUMNS, type PostRow } from './post-row.js';

/**
 * Every published post that is live now, as the content the site draws (site-content.ts), with
 * the partner perks (files: they are not posts). Scheduled posts whose time has come count as
 * published even before the job marks them (scheduling.ts), so no visitor waits on the queue.
 */
export async function readPublishedContent(
  pool: Pick<pg.Pool, 'query'>,
  perks: readonly Perk[],
  /** A post as it would be published (the desk's preview): in place of its saved row. */
  preview?: PostRow,
): Promise<LoadedContent> {
  const { rows } = await pool.query<PostRow>(
    `SELECT ${POST_COLUMNS} FROM "posts"
      WHERE "deletedAt" IS NULL AND "status" IN ('published', 'scheduled')
        AND "publishedAt" <= now()
      ORDER BY "id"`,
  );
  const content: LoadedContent = {
    articles: [],
    campaigns: [],
    boycotts: [],
    resourceGroups: [],
    pages: [],
    perks: perks.map((perk) => ({ file: '', name: perk.id, data: perk, body: null, markdown: '' })),
    newsletters: [],
    files: [],
  };
  const trees = new TreeCache(lastTrees);
  const live = preview ? [...rows.filter((row) => row.id !== preview.id), preview] : rows;
  for (const row of live) addRow(content, row, trees);
  // A preview's trees are not kept for the next read: it is drawn once.
  if (!preview) lastTrees = trees.used;
  return content;
}

/**
 * Bodies' trees by their Markdown, kept from one read of the posts to the next: a change to one
 * post parses that post again, not every post (trees are never changed once made).
 */
class TreeCache {
  readonly used = new Map<string, MarkdownTree>();
  constructor(private readonly earlier: ReadonlyMap<string, MarkdownTree>) {}
  tree(markdown: string): MarkdownTree {
    let tree = this.used.get(markdown) ?? this.earlier.get(markdown);
    if (!tree) tree = convertMarkdownToTree(markdown);
    this.used.set(markdown, tree);
    return tree;
  }
}
let lastTrees: ReadonlyMap<string, MarkdownTree> = new Map();

function addRow(content: LoadedContent, row: PostRow, trees: TreeCache) {
  const file = `${POST_FOLDERS[row.kind]}/${row.slug}.md`;
  const date = isoDay(row.publishedAt ?? row.updatedAt);
  const fields = row.fields;
  // The divider marks where members-only reading starts: never shown itself.
  const { before, after } = splitAtDivider(row.body);
  const whole = after === null ? before : `${before}\n\n${after}`;
  const body = whole.trim() === '' ? null : trees.tree(whole);
  const teaser =
    row.visibility === 'members' ? trees.tree(after === null ? '' : before) : undefined;
  const entry = <T>(data: T): ContentFile<T> => ({
    file,
    name: row.slug,
    data,
    body,
    markdown: row.body,
    ...(teaser && { teaser }),
  });
  const base = { id: row.id, slug: row.slug, title: row.title };
  switch (row.kind) {
    case 'article':
      content.articles.push(
        entry({
          ...(fields as ArticleFields),
          ...base,
          publishedAt: date,
          ...presentation(row),
        } as ArticleFrontMatter),
      );
      return;
    case 'campaign':
      content.campaigns.push(
        entry({ ...(fields as CampaignFields), ...base, publishedAt: date } as CampaignFrontMatter),
      );
      return;
    case 'boycott': {
      const { boycottStatus, ...rest } = fields as BoycottFields;
      content.boycotts.push(
        entry({ ...rest, ...base, status: boycottStatus } as BoycottFrontMatter),
      );
      return;
    }
    case 'resources':
      content.resourceGroups.push(
        entry({
          ...(fields as ResourceFields),
          id: row.id,
          slug: row.slug,
        } as ResourceGroupFrontMatter),
      );
      return;
    case 'page':
      content.pages.push(
        entry({
          ...(fields as PageFields),
          id: row.id,
          title: row.title,
          ...presentation(row),
        } as PageFrontMatter),
      );
      return;
    case 'newsletter':
      content.newsletters.push(
        entry({
          ...(fields as NewsletterFields),
          // A post written in the desk may leave out what a file's front matter defaults.
          articles: (fields as Partial<NewsletterFields>).articles ?? [],
          sample: (fields as Partial<NewsletterFields>).sample ?? false,
          ...base,
          publishedAt: date,
          membersOnly: row.visibility === 'members',
        } as NewsletterFrontMatter),
      );
      return;
  }
}

/** What a writer set of how a post looks and is found: kept only where set. */
export interface PostPresentation {
  featureImage?: string;
  featureImageAlt?: string;
  seoTitle?: string;
  seoDescription?: string;
}

function presentation(row: PostRow): PostPresentation {
  return {
    ...(row.featureImage && { featureImage: row.featureImage }),
    ...(row.featureImageAlt && { featureImageAlt: row.featureImageAlt }),
    ...(row.seoTitle && { seoTitle: row.seoTitle }),
    ...(row.seoDescription && { seoDescription: row.seoDescription }),
  };
}

// What each kind keeps in `fields`: its front matter without what is a column of its own.
type ArticleFields = Omit<ArticleFrontMatter, 'id' | 'slug' | 'title' | 'publishedAt'>;
type CampaignFields = Omit<CampaignFrontMatter, 'id' | 'slug' | 'title' | 'publishedAt'>;
type BoycottFields = Omit<BoycottFrontMatter, 'id' | 'slug' | 'title' | 'status'> & {
  boycottStatus: BoycottFrontMatter['status'];
};
type ResourceFields = Omit<ResourceGroupFrontMatter, 'id' | 'slug'>;
type PageFields = Omit<PageFrontMatter, 'id' | 'title'>;
type NewsletterFields = Omit<
  NewsletterFrontMatter,
  'id' | 'slug' | 'title' | 'publishedAt' | 'membersOnly'
>;
