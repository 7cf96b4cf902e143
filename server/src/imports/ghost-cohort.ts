import { hasOwnAddress, POST_KINDS, type PostKind } from '../../../contract/posts.js';
import { parseDate } from './source-values.js';
import { byId, id, isRow, text, type Tables } from './ghost-tables.js';
import type { SourceBundle, SourceComment, SourceSection } from './source.js';

/*
 * What a Cohort export writes beside Ghost's tables, and Ghost's own comments, read back. Ghost's
 * shapes hold no sections, no kinds besides posts and pages, and no guest's name on a comment:
 * the export (ghost-export-cohort.ts) writes them in a `cohort` block next to `meta` and `data`,
 * which Ghost's importer never reads, so a Cohort import puts every post back as it was.
 */

/** The block's shape, as ghost-export-cohort.ts writes it. */
export const COHORT_BLOCK_VERSION = 1;

export interface CohortBlockPost {
  /** The post's Ghost id in the same export. */
  post_id: string;
  kind: PostKind;
  /** The kind's fields, as the site keeps them (contract/post-fields.ts). */
  fields: Record<string, unknown>;
}

export interface CohortBlock {
  version: number;
  sections: SourceSection[];
  posts: CohortBlockPost[];
  /** The names guests signed their comments with (Ghost's comments name members only). */
  comments: { comment_id: string; guest_name: string }[];
}

const isKind = (value: unknown): value is PostKind =>
  typeof value === 'string' && (POST_KINDS as readonly string[]).includes(value);

const LISTS = new Set(['articles', 'campaigns', 'boycotts', 'resources']);

/** The `cohort` block of a parsed export, when it has one this reader knows; else null. */
export function readCohortBlock(parsed: unknown): CohortBlock | null {
  const entry = isRow(parsed) && Array.isArray(parsed.db) ? parsed.db[0] : parsed;
  const block = isRow(entry) ? entry.cohort : undefined;
  if (!isRow(block) || block.version !== COHORT_BLOCK_VERSION) return null;
  const rows = (value: unknown) => (Array.isArray(value) ? value.filter(isRow) : []);
  const sections: SourceSection[] = rows(block.sections).flatMap((row) => {
    const name = text(row.name);
    const slug = text(row.slug);
    const lists = text(row.lists) ?? 'articles';
    const color = text(row.color);
    if (!name || !slug || !LISTS.has(lists)) return [];
    const section: SourceSection = {
      name,
      slug,
      description: text(row.description) ?? '',
      lists: lists as SourceSection['lists'],
      inMenu: row.inMenu !== false,
    };
    if (color) section.color = color;
    return [section];
  });
  const posts = rows(block.posts).flatMap((row) =>
    typeof row.post_id === 'string' && isKind(row.kind) && isRow(row.fields)
      ? [{ post_id: row.post_id, kind: row.kind, fields: row.fields }]
      : [],
  );
  const comments = rows(block.comments).flatMap((row) => {
    const name = text(row.guest_name);
    return typeof row.comment_id === 'string' && name
      ? [{ comment_id: row.comment_id, guest_name: name }]
      : [];
  });
  return { version: COHORT_BLOCK_VERSION, sections, posts, comments };
}

/** Gives the bundle's posts their kind and fields, and the bundle its sections, from the block. */
export function applyCohortBlock(bundle: SourceBundle, block: CohortBlock): void {
  const byPost = new Map(block.posts.map((post) => [post.post_id, post]));
  for (const post of bundle.posts) {
    const said = byPost.get(post.sourceId);
    if (!said) continue;
    post.cohort = { kind: said.kind, fields: said.fields };
    // A screen's text, a campaign, a boycott or a resource list had no address of its own there.
    if (!hasOwnAddress({ kind: said.kind, slug: post.slug })) post.oldPaths = [];
  }
  bundle.sections = block.sections;
}

/**
 * Ghost's comments (its `comments` table, in a full export and in Cohort's): those shown on the
 * site (`published`), each on its post, in its thread, signed with its member's name, a guest's
 * name the Cohort block keeps, or "A member". Hidden and deleted ones stay behind.
 */
export function readGhostComments(
  tables: Tables,
  bundle: SourceBundle,
  block: CohortBlock | null,
): void {
  const members = byId(tables.members);
  const guests = new Map((block?.comments ?? []).map((row) => [row.comment_id, row.guest_name]));
  const byPost = new Map<string, SourceComment[]>();
  let count = 0;
  for (const row of tables.comments ?? []) {
    if (row.status !== 'published') continue;
    const html = text(row.html);
    const createdAt = parseDate(row.created_at);
    if (!html || !createdAt) continue;
    const commentId = id(row.id);
    const member = row.member_id ? members.get(id(row.member_id)) : undefined;
    const comment: SourceComment = {
      sourceId: commentId,
      parentSourceId: row.parent_id ? id(row.parent_id) : null,
      authorName: guests.get(commentId) ?? text(member?.name) ?? 'A member',
      createdAt,
      html,
    };
    const list = byPost.get(id(row.post_id)) ?? [];
    list.push(comment);
    byPost.set(id(row.post_id), list);
    count += 1;
  }
  for (const post of bundle.posts) {
    const comments = byPost.get(post.sourceId);
    if (!comments) continue;
    post.approvedComments = comments;
    post.comments = comments.length;
  }
  bundle.comments += count;
}
