import type pg from 'pg';
import type { MarkdownTree } from '../../../contract/markdown-tree.js';
import { splitAtDivider } from '../../../contract/posts.js';
import { isRestricted, type ReadingRule } from '../../../contract/reading.js';
import type { Author } from '../../../contract/authors.js';
import { readCardReadings } from '../embeds/card-store.js';
import { convertMarkdownToTree, type CardReadings } from './markdown-to-tree.js';
import { readPostCredits } from './post-authors.js';
import { POST_COLUMNS, type PostRow } from './post-row.js';

/** A published post's row with its body parsed: what site-content.ts makes the site of. */
export interface PublishedPost {
  row: PostRow;
  /** The whole body, the divider left out; null when there is no text. */
  body: MarkdownTree | null;
  /** Who may read the whole body (contract/reading.ts). */
  rule: ReadingRule;
  /**
   * A restricted post's (any visibility but `public`): what readers the rule keeps out read (the
   * body up to the divider, else nothing). Absent for a public post.
   */
  teaser?: MarkdownTree;
  /** Who wrote it, in byline order (post_authors); empty: credited to nobody. */
  authors: Author[];
}

/**
 * Every published post that is live now, in the order of their ids. Scheduled posts whose time
 * has come count as published even before the job marks them (scheduling.ts), so no visitor
 * waits on the queue.
 */
export async function readPublishedPosts(
  pool: Pick<pg.Pool, 'query'>,
  /** A post as it would be published (the desk's preview): in place of its saved row. */
  preview?: PostRow,
): Promise<PublishedPost[]> {
  const [{ rows }, credits, cards] = await Promise.all([
    pool.query<PostRow>(
      `SELECT ${POST_COLUMNS} FROM "posts"
        WHERE "deletedAt" IS NULL AND "status" IN ('published', 'scheduled')
          AND "publishedAt" <= now()
        ORDER BY "id"`,
    ),
    readPostCredits(pool),
    // Every reading kept: the table holds only addresses posts named, each once.
    readCardReadings(pool),
  ]);
  const trees = new TreeCache(lastTrees, cards);
  const live = preview ? [...rows.filter((row) => row.id !== preview.id), preview] : rows;
  const posts = live.map((row) => ({
    ...parseBody(row, trees),
    authors: credits.get(row.id) ?? [],
  }));
  // A preview's trees are not kept for the next read: it is drawn once.
  if (!preview) lastTrees = trees.used;
  return posts;
}

/**
 * Bodies' trees by their Markdown and what was read of the cards it may name, kept from one read
 * of the posts to the next: a change to one post parses that post again, not every post, and a
 * card read anew parses again the posts that name it (trees are never changed once made).
 */
class TreeCache {
  readonly used = new Map<string, MarkdownTree>();
  constructor(
    private readonly earlier: ReadonlyMap<string, MarkdownTree>,
    private readonly cards: CardReadings,
  ) {}
  tree(markdown: string): MarkdownTree {
    const key = `${markdown}\u0000${this.readingsIn(markdown)}`;
    let tree = this.used.get(key) ?? this.earlier.get(key);
    if (!tree) tree = convertMarkdownToTree(markdown, this.cards);
    this.used.set(key, tree);
    return tree;
  }
  /**
   * The readings of every address the text holds, as text: more than its cards (an address in a
   * link too), found without parsing it.
   */
  private readingsIn(markdown: string): string {
    if (this.cards.size === 0) return '';
    const readings = [];
    for (const [url] of markdown.matchAll(/https?:\/\/[^\s<>"]+/gi)) {
      const reading = this.cards.get(url);
      if (reading) readings.push(reading);
    }
    return readings.length === 0 ? '' : JSON.stringify(readings);
  }
}
let lastTrees: ReadonlyMap<string, MarkdownTree> = new Map();

function parseBody(row: PostRow, trees: TreeCache): Omit<PublishedPost, 'authors'> {
  // The divider marks where members-only reading starts: never shown itself.
  const { before, after } = splitAtDivider(row.body);
  const whole = after === null ? before : `${before}\n\n${after}`;
  const body = whole.trim() === '' ? null : trees.tree(whole);
  const rule: ReadingRule = { visibility: row.visibility, tiers: row.tiers };
  if (!isRestricted(rule)) return { row, rule, body };
  return { row, rule, body, teaser: trees.tree(after === null ? '' : before) };
}
