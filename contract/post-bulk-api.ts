import { Type, type StaticDecode } from 'typebox';
import { oneOfField, slugField } from './field-schemas.js';
import { postCommonSchema, tagSchema } from './post-fields.js';
import { BULK_ACTIONS, MAX_BULK_POSTS, POST_LIST_STATUSES, type BulkAction } from './post-bulk.js';
import { POST_KINDS, POST_VISIBILITIES } from './posts.js';
import type { FieldProblem } from './schema-problems.js';

// The schemas of the desk's posts list and its bulk actions (server/src/routes/desk/posts.ts),
// read by contract/schema-problems.ts: a wrong bulk body is a 400 naming each wrong field.

const words = () =>
  Type.Optional(
    Type.String({
      maxLength: 200,
      errorMessage: { type: 'must be text', maxLength: 'must be at most 200 characters' },
    }),
  );

/**
 * The one list of the posts list's filter fields: its query string (`GET /api/desk/posts`) and a
 * bulk action's `filter` take these, and find the same posts.
 */
export const postFilterFields = {
  kind: Type.Optional(oneOfField(POST_KINDS)),
  status: Type.Optional(oneOfField(POST_LIST_STATUSES)),
  q: words(),
  /** The same as `q`, by the name the filter has. */
  text: words(),
};

/** PostgreSQL's int: the largest id a post may have. */
const MAX_ID = 2 ** 31 - 1;

/** `POST /api/desk/posts/bulk`; which fields each action needs is `bulkBodyProblems`'s to say. */
export const PostBulkBodySchema = Type.Object(
  {
    ids: Type.Optional(
      Type.Array(
        Type.Integer({
          exclusiveMinimum: 0,
          maximum: MAX_ID,
          errorMessage: 'must be a post’s id, a positive whole number',
        }),
        {
          minItems: 1,
          maxItems: MAX_BULK_POSTS,
          errorMessage: {
            type: 'must be a list of post ids',
            minItems: 'must name at least one post',
            maxItems: `must name at most ${MAX_BULK_POSTS} posts`,
          },
        },
      ),
    ),
    filter: Type.Optional(
      Type.Object(postFilterFields, {
        additionalProperties: false,
        errorMessage: {
          type: 'must be the posts list’s filter: kind, status, q',
          additionalProperties: 'may say only kind, status, q or text',
        },
      }),
    ),
    action: Type.Enum(BULK_ACTIONS, {
      errorMessage: `must be one of ${BULK_ACTIONS.join(', ')}`,
    }),
    section: Type.Optional(slugField()),
    topic: Type.Optional(tagSchema),
    visibility: Type.Optional(oneOfField(POST_VISIBILITIES)),
    /** With visibility `tiers`: the tiers' slugs (contract/reading.ts). */
    tiers: Type.Optional(postCommonSchema.properties.tiers),
  },
  { additionalProperties: false },
);
export type PostBulkBody = StaticDecode<typeof PostBulkBodySchema>;

/** The field each action takes besides the posts, if any. */
const ACTION_FIELDS: Record<BulkAction, 'section' | 'topic' | 'visibility' | null> = {
  unpublish: null,
  delete: null,
  restore: null,
  move: 'section',
  addTopic: 'topic',
  removeTopic: 'topic',
  visibility: 'visibility',
};
const WHAT: Record<'section' | 'topic' | 'visibility', string> = {
  section: 'the slug of the section to move them to',
  topic: 'the topic, by its name or slug',
  visibility: `${POST_VISIBILITIES.join(', ')} (tiers with the tiers' slugs in tiers)`,
};

/**
 * What the schema cannot say of a body it read: the posts by ids or by filter (one of them), the
 * field its action takes (and no other's), and tiers with visibility `tiers` (and only then).
 */
export function bulkBodyProblems(body: PostBulkBody): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if ((body.ids === undefined) === (body.filter === undefined)) {
    problems.push({
      field: 'ids',
      message: 'name the posts by their ids, or give a filter: one of the two',
    });
  }
  const wanted = ACTION_FIELDS[body.action];
  for (const field of ['section', 'topic', 'visibility'] as const) {
    if (field === wanted && body[field] === undefined) {
      problems.push({ field, message: `is required to ${body.action}: ${WHAT[field]}` });
    } else if (field !== wanted && body[field] !== undefined) {
      problems.push({ field, message: `is not taken by ${body.action}` });
    }
  }
  const tiers = body.tiers ?? [];
  if (body.visibility === 'tiers' && tiers.length === 0) {
    problems.push({
      field: 'tiers',
      message: 'must name at least one tier when visibility is tiers',
    });
  } else if (body.visibility !== 'tiers' && tiers.length > 0) {
    problems.push({ field: 'tiers', message: 'are named only when visibility is tiers' });
  }
  return problems;
}
