import { POST_STATUSES, type PostKind, type PostVisibility } from './posts.js';

// Many posts at once (`POST /api/desk/posts/bulk`, docs/desk.md) and the Trash deleted posts go
// to: what the desk's posts list and the server agree on, without a schema library (the schemas
// are contract/post-bulk-api.ts's).

/** What the posts list shows by status: the statuses posts have, and the Trash. */
export const POST_LIST_STATUSES = [...POST_STATUSES, 'deleted'] as const;
export type PostListStatus = (typeof POST_LIST_STATUSES)[number];

/** The posts list's filter, as its address and a bulk action's `filter` say it. */
export interface PostListFilter {
  kind?: PostKind;
  /** `deleted`: the Trash. Left out: every post not in the Trash. */
  status?: PostListStatus;
  /** Words in the title, the slug or the body. */
  q?: string;
  /** The same as `q`, by the name the filter has. */
  text?: string;
}

/** How long a deleted post stays in the Trash, restorable, before it is purged for good. */
export const TRASH_DAYS = 30;

/** When a post deleted at `deletedAt` (ISO) leaves the Trash for good. */
export const purgedAfter = (deletedAt: string): Date =>
  new Date(Date.parse(deletedAt) + TRASH_DAYS * 24 * 60 * 60 * 1000);

export const BULK_ACTIONS = [
  'unpublish',
  'delete',
  'restore',
  'move',
  'addTopic',
  'removeTopic',
  'visibility',
] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The most posts one bulk action takes, by ids or by filter. */
export const MAX_BULK_POSTS = 1000;

/** Which posts: these ids, or every post the list's filter finds. */
export type BulkSelection = { ids: number[] } | { filter: PostListFilter };

/** `POST /api/desk/posts/bulk`: the posts and what to do to them. */
export type BulkBody = BulkSelection &
  (
    | { action: 'unpublish' | 'delete' | 'restore' }
    | { action: 'move'; section: string }
    | { action: 'addTopic' | 'removeTopic'; topic: string }
    /** `tiers`: the slugs of the tiers whose members may read them, with visibility `tiers`. */
    | { action: 'visibility'; visibility: PostVisibility; tiers?: string[] }
  );

/** A post the action left as it was, and why, in words for the staff member. */
export interface BulkSkip {
  id: number;
  reason: string;
}

/** What a bulk action came to: how many posts took it, and those that did not. */
export interface BulkResult {
  done: number;
  skipped: BulkSkip[];
}
