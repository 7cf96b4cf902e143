import { isRestricted } from '../../../contract/reading.js';
import type { PostComments } from '../../../contract/site-data.js';
import { readCommentsVersion, type Db } from '../comments/comment-store.js';
import { listPostComments } from '../comments/comments.js';
import type { SiteContent } from '../content/site-content.js';

/** A post whose comments a page shows under it. */
interface CommentedPost {
  id: number;
  /** Its rule keeps its body from someone (contract/reading.ts), and so its comments. */
  restricted: boolean;
}

/** The comments a page draws, and the key of what it drew from: another key, another drawing. */
export interface PageCommentsData {
  /** `<postId>@<version>` of each public post the page shows, in order; '' for none. */
  key: string;
  comments: Record<string, PostComments>;
}

type PublicComments = Extract<PostComments, { count: number }>;

/** A post's first page of comments, read at a version of its comments. */
interface Kept {
  /** The notices counted for the post when this was read: a later one makes it stale. */
  seen: number;
  read: Promise<{ version: number; list: PublicComments }>;
}

const byContent = new WeakMap<SiteContent, Map<string, CommentedPost[]>>();

/**
 * The posts whose comments the page at `path` shows: an article under it, every campaign and every
 * boycott under its card. Worked out once per page and content.
 */
export function commentedPostsAt(content: SiteContent, path: string): CommentedPost[] {
  let known = byContent.get(content);
  if (!known) {
    known = new Map();
    byContent.set(content, known);
  }
  let posts = known.get(path);
  if (!posts) {
    posts = findCommentedPosts(content, path);
    // Only the site's own pages are kept: any address may be asked for.
    if (posts.length > 0) known.set(path, posts);
  }
  return posts;
}

function findCommentedPosts(content: SiteContent, path: string): CommentedPost[] {
  const of = (post: { id: number }) => ({
    id: post.id,
    restricted: restrictedIds(content).has(post.id),
  });
  // The campaigns' and the boycotts' lists, where their sections are.
  const { specialSlugs } = content;
  if (specialSlugs.has('campaigns') && path === `/${specialSlugs.get('campaigns')}`) {
    return content.campaigns.map(of);
  }
  if (specialSlugs.has('boycotts') && path === `/${specialSlugs.get('boycotts')}`) {
    return content.boycotts.map(of);
  }
  for (const [category, slug] of content.sectionSlugs) {
    const section = `/${slug}/`;
    if (!path.startsWith(section)) continue;
    const article = content.articles.find(
      (item) => item.category === category && item.slug === path.slice(section.length),
    );
    return article ? [of(article)] : [];
  }
  return [];
}

const restrictedByContent = new WeakMap<SiteContent, ReadonlySet<number>>();

/** The published posts some reader may not read whole (any visibility but public). */
function restrictedIds(content: SiteContent): ReadonlySet<number> {
  let ids = restrictedByContent.get(content);
  if (!ids) {
    ids = new Set(
      content.published.filter((post) => isRestricted(post.rule)).map((post) => post.row.id),
    );
    restrictedByContent.set(content, ids);
  }
  return ids;
}

/**
 * The comments drawn into the site's pages (docs/comments.md): each public post's newest page, as
 * a visitor sees it, read once and kept until its comments change. Every change of a post's
 * comments raises its version in its own transaction and notifies every app server
 * (comments/comment-store.ts, `commentsChanged`); `noticed` takes that notice, `checkKept` asks
 * the database where a server cannot listen. A page is drawn again only when the key of what it
 * shows moves, so the article pages stay kept between comments (server/src/site/site-pages.ts). A
 * restricted post's comments (any visibility but public: contract/reading.ts) are never drawn into
 * a page: the browser asks for them, and the server answers only a reader who may read the post's
 * body (comments/comments.ts, mayReadComments).
 */
export class PageComments {
  private readonly kept = new Map<number, Kept>();
  /** Notices counted per post (any notice, whatever its version, makes what was kept stale). */
  private readonly notices = new Map<number, number>();

  constructor(
    private readonly db: Db,
    /** Off (COMMENTS=off): pages draw no comments at all. */
    private readonly enabled: boolean,
  ) {}

  /** What the page at `path` draws of its posts' comments; null for a page with none. */
  async forPage(content: SiteContent, path: string): Promise<PageCommentsData | null> {
    if (!this.enabled) return null;
    const posts = commentedPostsAt(content, path);
    if (posts.length === 0) return null;
    const comments: Record<string, PostComments> = {};
    const keys: string[] = [];
    // Kept ones at once; a page of campaigns reads those it lacks side by side. Comments that
    // cannot be read (the database away) leave the page drawn without them, not failed.
    const lists = await Promise.all(
      posts.map((post) => (post.restricted ? null : this.read(post.id).catch(() => undefined))),
    );
    posts.forEach((post, index) => {
      const read = lists[index];
      if (read === null) comments[post.id] = { membersOnly: true };
      else if (read === undefined) keys.push(`${post.id}@unread`);
      else {
        comments[post.id] = read.list;
        keys.push(`${post.id}@${read.version}`);
      }
    });
    return { key: keys.join(' '), comments };
  }

  /** A post's comments changed somewhere (a notice on COMMENTS_CHANNEL): read them again. */
  noticed(postId: number) {
    this.notices.set(postId, (this.notices.get(postId) ?? 0) + 1);
    this.kept.delete(postId);
  }

  /**
   * Asks the database for the version of every post kept, and forgets those that moved: what a
   * server that cannot LISTEN does every second, and one that can does after (re)connecting.
   */
  async checkKept(): Promise<void> {
    const kept = [...this.kept];
    if (kept.length === 0) return;
    const { rows } = await this.db.query<{ postId: number; version: number }>(
      `SELECT "postId", "version" FROM "post_comment_versions" WHERE "postId" = ANY($1::int[])`,
      [kept.map(([postId]) => postId)],
    );
    const versions = new Map(rows.map((row) => [row.postId, row.version]));
    await Promise.all(
      kept.map(async ([postId, entry]) => {
        const held = await entry.read.catch(() => null);
        const moved = held && held.version !== (versions.get(postId) ?? 0);
        if (moved && this.kept.get(postId) === entry) this.noticed(postId);
      }),
    );
  }

  /** The post's newest comments, as kept or read now (one read at a time per post). */
  private read(postId: number): Kept['read'] {
    const seen = this.notices.get(postId) ?? 0;
    const kept = this.kept.get(postId);
    if (kept && kept.seen === seen) return kept.read;
    const read = (async () => {
      // The version before the rows: the rows are at least that new, and a change committed in
      // between brings a notice that makes them stale.
      const version = await readCommentsVersion(this.db, postId);
      const { count, comments, nextCursor } = await listPostComments(this.db, {
        postId,
        viewerUserId: null,
        sort: 'newest',
      });
      return { version, list: { count, comments, nextCursor } };
    })();
    const entry: Kept = { seen, read };
    this.kept.set(postId, entry);
    // A failure is not kept: the next request reads again.
    read.catch(() => {
      if (this.kept.get(postId) === entry) this.kept.delete(postId);
    });
    return read;
  }
}
