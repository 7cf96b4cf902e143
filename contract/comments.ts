import { Type, type Static, type TSchema } from 'typebox';

// Comments under posts (docs/comments.md): what the public API, the pages and the desk's Comments
// page agree on. Additive changes only from here on; each is noted where it is made.
//
// Public API
//   GET    /api/posts/:postId/comments?sort=&cursor=   → CommentList (top-level comments, their
//          replies inside). A members-only post's comments answer 404 to whoever may not read its
//          body; with COMMENTS=off the answer is an empty list (count 0, canComment false).
//   POST   /api/posts/:postId/comments {body, parentId?} → 201 {comment}; 401 visitor, 403 may not
//          comment (code `not_a_member`, `comments_off`, `blocked`, `unproven_address`), 409
//          `name_required` when the account has no name yet (PATCH /api/account/profile first),
//          400 `comment_empty` / `comment_too_long` / `duplicate_comment`, 429 `too_many_comments`
//          with Retry-After. A reply to a reply is stored in the thread of its top comment.
//   PATCH  /api/comments/:id {body} → {comment}; DELETE /api/comments/:id → 204. Own comments
//          only: another's answers 404.
//   POST   /api/comments/:id/likes and DELETE /api/comments/:id/likes → CommentLikes
//   POST   /api/comments/:id/reports {reason} → 202 {}
//   PATCH  /api/account/profile {name} → {name}  (1–60 characters, trimmed)
//   GET    /api/comments/reply-mails/stop?token=…  a small HTML page (the mail's stop link) whose
//          button POSTs to the same address; POST /api/comments/reply-mails/stop?token=… (RFC 8058
//          one-click, body ignored) stops them: HTML, or {stopped, message} when sent JSON.
//          (Changed from the first draft's {token} body: one-click needs the token in the address.)
//
// Desk (owners and editors; writers get 403 `writers_see_posts_only`, as for members and money)
//   GET    /api/desk/comments?status=all|reported|hidden|pending&cursor= → DeskCommentList: those
//          with open reports (since staff last hid or showed them) first, then newest first
//   POST   /api/desk/comments/:id/hide | /show | /pin | /unpin → {comment: DeskComment}
//          (`show` also approves a pending comment)
//   POST   /api/desk/commenters/:userId/block {hideEarlier?} → CommenterBlock
//   POST   /api/desk/commenters/:userId/unblock → CommenterBlock
//   GET    /api/desk/comment-mail → CommentMailChoice; PUT /api/desk/comment-mail
//          {onEveryComment} → CommentMailChoice (the staff member's own choice)

/** Longest comment, in characters (after trimming). */
export const COMMENT_MAX_LENGTH = 5000;
/** A commenter's display name: 1 to 60 characters, trimmed. */
export const COMMENTER_NAME_MIN = 1;
export const COMMENTER_NAME_MAX = 60;
/** Longest report reason. */
export const REPORT_REASON_MAX = 500;
/** Top-level comments per page of GET /api/posts/:postId/comments (replies come with them). */
export const COMMENTS_PAGE_SIZE = 20;
/** Comments per page of the desk's list. */
export const DESK_COMMENTS_PAGE_SIZE = 50;
/** A member's limits: this many comments a minute and a day (429 beyond). */
export const COMMENTS_PER_MINUTE = 5;
export const COMMENTS_PER_DAY = 50;

export const COMMENT_SORTS = ['best', 'newest', 'oldest'] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];
/** What the page and the API show when no `sort` is given. */
export const DEFAULT_COMMENT_SORT: CommentSort = 'newest';

/** The `id` attribute of a comment on the post's page: a reply mail links to `<post url>#comment-<id>`. */
export const commentAnchor = (id: string) => `comment-${id}`;

/** `?sort=&cursor=` of GET /api/posts/:postId/comments. */
export const CommentListQuerySchema = Type.Object({
  sort: Type.Optional(Type.Enum(COMMENT_SORTS)),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});
export type CommentListQuery = Static<typeof CommentListQuerySchema>;

/** A path's post id is text (the server's ajv coerces no types): digits, read with Number(). */
export const PostIdParamsSchema = Type.Object({
  postId: Type.String({ pattern: '^[1-9][0-9]{0,8}$' }),
});
export const CommentIdParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const CommenterParamsSchema = Type.Object({ userId: Type.String({ format: 'uuid' }) });

const commentFields = {
  id: Type.String(),
  /** The top comment of its thread, or null for a top comment. */
  parentId: Type.Union([Type.String(), Type.Null()]),
  /** An imported guest's name, or the account's name. */
  author: Type.Object({ name: Type.String() }),
  /** Sanitised HTML of the Markdown body; '' when deleted. */
  html: Type.String(),
  createdAt: Type.String(),
  /** When its author last edited it (the page shows "edited"), or null. */
  editedAt: Type.Union([Type.String(), Type.Null()]),
  /** Deleted by its author but kept as a placeholder because it has replies. */
  deleted: Type.Boolean(),
  likes: Type.Integer(),
  likedByMe: Type.Boolean(),
  /** Written by the viewer: they may edit and delete it. */
  mine: Type.Boolean(),
  /** The Markdown as its author wrote it, to edit: on the viewer's own comments only. */
  body: Type.Optional(Type.String()),
  /** Pinned by staff: shown first. */
  pinned: Type.Boolean(),
  /** Held for approval: only its author sees it, until staff show it. */
  pending: Type.Boolean(),
};

const ReplySchema = Type.Object({ ...commentFields, replies: Type.Array(Type.Never()) });

export const CommentSchema = Type.Object({
  ...commentFields,
  /** Replies of a top comment, oldest first; always [] for a reply. */
  replies: Type.Array(ReplySchema),
});
export type Comment = Static<typeof CommentSchema>;

/** What the viewer may do under this post (the page decides what box to draw from it). */
export const CommentViewerSchema = Type.Object({
  signedIn: Type.Boolean(),
  /** May post a comment now (COMMENTS rules, not blocked). */
  canComment: Type.Boolean(),
  /** The account's display name; null: the comment box asks for one first. */
  name: Type.Union([Type.String(), Type.Null()]),
});
export type CommentViewer = Static<typeof CommentViewerSchema>;

export const CommentListSchema = Type.Object({
  /** Comments shown on the post, replies included ("12 comments"); deleted ones not counted. */
  count: Type.Integer(),
  comments: Type.Array(CommentSchema),
  /** Pass as `?cursor=` for the next page; null at the end. */
  nextCursor: Type.Union([Type.String(), Type.Null()]),
  viewer: CommentViewerSchema,
});
export type CommentList = Static<typeof CommentListSchema>;

/** POST /api/posts/:postId/comments. */
export const NewCommentBodySchema = Type.Object(
  {
    body: Type.String({ maxLength: COMMENT_MAX_LENGTH * 4 }),
    parentId: Type.Optional(Type.String({ format: 'uuid' })),
  },
  { additionalProperties: false },
);
export type NewCommentBody = Static<typeof NewCommentBodySchema>;

/** PATCH /api/comments/:id. */
export const CommentEditBodySchema = Type.Object(
  { body: Type.String({ maxLength: COMMENT_MAX_LENGTH * 4 }) },
  { additionalProperties: false },
);

export const CommentAnswerSchema = Type.Object({ comment: CommentSchema });
export type CommentAnswer = Static<typeof CommentAnswerSchema>;

/** POST/DELETE /api/comments/:id/likes. */
export const CommentLikesSchema = Type.Object({ likes: Type.Integer(), likedByMe: Type.Boolean() });
export type CommentLikes = Static<typeof CommentLikesSchema>;

/** POST /api/comments/:id/reports. */
export const CommentReportBodySchema = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: REPORT_REASON_MAX,
    }),
  },
  { additionalProperties: false },
);

/** PATCH /api/account/profile. */
export const ProfileBodySchema = Type.Object(
  { name: Type.String({ maxLength: COMMENTER_NAME_MAX * 4 }) },
  { additionalProperties: false },
);
export const ProfileSchema = Type.Object({ name: Type.String() });
export type Profile = Static<typeof ProfileSchema>;

// ---- Desk ----

export const DESK_COMMENT_FILTERS = ['all', 'reported', 'hidden', 'pending'] as const;
export type DeskCommentFilter = (typeof DESK_COMMENT_FILTERS)[number];

export const DeskCommentQuerySchema = Type.Object({
  status: Type.Optional(Type.Enum(DESK_COMMENT_FILTERS)),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});

export const COMMENT_STATUSES = ['visible', 'hidden', 'pending'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const DeskCommentSchema = Type.Object({
  id: Type.String(),
  parentId: nullable(Type.String()),
  /** `path` is the post's address on the site (/articles/slug...). */
  post: Type.Object({ id: Type.Integer(), title: Type.String(), path: Type.String() }),
  /** userId and email are null for an imported guest's comment. */
  author: Type.Object({
    userId: nullable(Type.String()),
    name: Type.String(),
    email: nullable(Type.String()),
    blocked: Type.Boolean(),
  }),
  /** The Markdown as written, and its HTML (both '' when deleted). */
  body: Type.String(),
  html: Type.String(),
  status: Type.Enum(COMMENT_STATUSES),
  pinned: Type.Boolean(),
  deleted: Type.Boolean(),
  likes: Type.Integer(),
  createdAt: Type.String(),
  editedAt: nullable(Type.String()),
  /** Reports, newest first. */
  reports: Type.Array(Type.Object({ reason: Type.String(), createdAt: Type.String() })),
});
export type DeskComment = Static<typeof DeskCommentSchema>;

export const DeskCommentListSchema = Type.Object({
  comments: Type.Array(DeskCommentSchema),
  nextCursor: nullable(Type.String()),
});
export type DeskCommentList = Static<typeof DeskCommentListSchema>;

export const DeskCommentAnswerSchema = Type.Object({ comment: DeskCommentSchema });

export const CommenterBlockBodySchema = Type.Object(
  {
    /** Hide the commenter's earlier comments too, in the same step. */
    hideEarlier: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const CommenterBlockSchema = Type.Object({
  userId: Type.String(),
  blocked: Type.Boolean(),
  /** How many earlier comments this step hid. */
  hidden: Type.Integer(),
});
export type CommenterBlock = Static<typeof CommenterBlockSchema>;

export const CommentMailChoiceSchema = Type.Object(
  { onEveryComment: Type.Boolean() },
  { additionalProperties: false },
);
export type CommentMailChoice = Static<typeof CommentMailChoiceSchema>;
