import type pg from 'pg';
import { storeImportedComment } from '../comments/imported-comments.js';
import { withTransaction } from '../db/transaction.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { itemKeyOf, readImportItems } from './post-planning.js';
import type { SourceBundle, SourceComment } from './source.js';

/**
 * The comments of an export's posts (WordPress's approved ones), stored as guests' comments on
 * the posts the import made of them (docs/migrating.md): each by the name it was signed with, on
 * its date, in its thread. The site's comments nest one level, so a reply to a reply joins the
 * thread of the comment it started from (comments/imported-comments.ts). A comment is
 * known by its id in the export (with the site's address): importing the file again adds nothing.
 * Posts are written first; comments on a post not imported (refused, edited here since) wait for a
 * later run. Answers how many of the file's comments are on the site now.
 */
export async function writeComments(
  pool: pg.Pool,
  bundle: SourceBundle,
  dryRun: boolean,
): Promise<number> {
  const withComments = bundle.posts.filter((post) => (post.approvedComments ?? []).length > 0);
  if (withComments.length === 0) return 0;
  const items = await readImportItems(pool, bundle.source);
  const site = bundle.siteUrl?.trim().replace(/\/+$/, '').toLowerCase() ?? '';
  let stored = 0;
  for (const post of withComments) {
    const postId = items.get(itemKeyOf(bundle, post))?.postId;
    if (postId === undefined || postId === null) continue;
    const comments = parentsFirst(post.approvedComments ?? []);
    if (dryRun) {
      stored += comments.length;
      continue;
    }
    await withTransaction(pool, async (tx) => {
      for (const comment of comments) {
        const sourceIdOf = (id: string) => `${bundle.source}:${site}:${id}`;
        await storeImportedComment(tx, {
          postId,
          sourceId: sourceIdOf(comment.sourceId),
          parentSourceId: comment.parentSourceId ? sourceIdOf(comment.parentSourceId) : null,
          guestName: comment.authorName,
          body: htmlToMarkdown(comment.html, { flavour: post.flavour, cards: false }).markdown,
          createdAt: comment.createdAt,
        });
        stored += 1;
      }
    });
  }
  return stored;
}

/**
 * The comments with each one after the one it answers (an export may list a reply first); one
 * answering a comment not in the list comes as a comment on the post.
 */
function parentsFirst(comments: readonly SourceComment[]): SourceComment[] {
  const byId = new Map(comments.map((comment) => [comment.sourceId, comment]));
  const ordered: SourceComment[] = [];
  const placed = new Set<string>();
  const place = (comment: SourceComment, seen: Set<string>) => {
    if (placed.has(comment.sourceId) || seen.has(comment.sourceId)) return;
    seen.add(comment.sourceId);
    const parent = comment.parentSourceId ? byId.get(comment.parentSourceId) : undefined;
    if (parent) place(parent, seen);
    placed.add(comment.sourceId);
    ordered.push(comment);
  };
  for (const comment of comments) place(comment, new Set());
  return ordered;
}
