import {
  Type,
  type StaticDecode,
  type TNull,
  type TObject,
  type TOptional,
  type TProperties,
  type TSchema,
  type TUnion,
} from 'typebox';
import { nullable, oneOfField } from './field-schemas.js';
import { postCommonSchema, postFieldSchemas, publishTimeSchema } from './post-fields.js';
import { POST_KINDS, type PostKind } from './posts.js';

// What the desk's post routes take (server/src/routes/desk/posts.ts), read by
// contract/schema-problems.ts: a wrong body is a 400 `invalid_post` naming each wrong field. A
// new post's kind is in its body, so all of it is checked here; a change's fields are the stored
// post's kind's, checked against it by the server (server/src/content/post-validation.ts).

const strict = { additionalProperties: false } as const;

/** A post's JSON as the desk read it carries these: sent back unchanged, they are ignored. */
const serverKept = {
  id: Type.Optional(Type.Unknown()),
  updatedAt: Type.Optional(Type.Unknown()),
  path: Type.Optional(Type.Unknown()),
  submittedAt: Type.Optional(Type.Unknown()),
};
/** Changed by publishing and unpublishing only: a save may say only what they are now. */
const lifecycle = {
  status: Type.Optional(Type.Unknown()),
  publishedAt: Type.Optional(Type.Unknown()),
};

/** The version of the post the writer last read: a save over a newer one is a 409. */
const version = Type.Integer({
  errorMessage: {
    type: 'is required: the version you last read',
    required: 'is required: the version you last read',
  },
});

type TChange<T extends TSchema> = TOptional<TUnion<[T, TNull]>>;
type TChanges<P extends TProperties> = { [K in keyof P]: TChange<P[K]> };

/** Each property as a change may say it: left out (unchanged), or null (taken off the post). */
function changesOf<P extends TProperties>(properties: P): TChanges<P> {
  return Object.fromEntries(
    Object.entries(properties).map(([key, schema]) => [key, Type.Optional(nullable(schema))]),
  ) as TChanges<P>;
}

/** The columns a change may set, each by its rule (null only where a column may be empty). */
const commonChanges = Type.Partial(postCommonSchema).properties;

/** A new post of one kind: its columns and its kind's fields, as far as a draft has them. */
const newPostOf = <Kind extends PostKind, P extends TProperties>(kind: Kind, fields: TObject<P>) =>
  Type.Object(
    {
      kind: Type.Literal(kind),
      version: Type.Optional(Type.Unknown()),
      ...serverKept,
      ...lifecycle,
      ...commonChanges,
      ...changesOf(fields.properties),
    },
    strict,
  );

/** POST /api/desk/posts: `kind` says which fields the rest may be. */
export const NewPostBodySchema = Type.Union(
  [
    newPostOf('article', postFieldSchemas.article),
    newPostOf('campaign', postFieldSchemas.campaign),
    newPostOf('boycott', postFieldSchemas.boycott),
    newPostOf('resources', postFieldSchemas.resources),
    newPostOf('page', postFieldSchemas.page),
    newPostOf('newsletter', postFieldSchemas.newsletter),
  ],
  { discriminator: 'kind', errorMessage: `must be one of ${POST_KINDS.join(', ')}` },
);
export type NewPostBody = StaticDecode<typeof NewPostBodySchema>;

/** The members of a change besides the kind's fields, which any other name is. */
const changeProperties = {
  kind: Type.Optional(oneOfField(POST_KINDS)),
  ...serverKept,
  ...lifecycle,
  ...commonChanges,
};

/** PATCH /api/desk/posts/:id: the columns it changes and its kind's fields, over `version`. */
export const PostChangeBodySchema = Type.Object(
  { version, ...changeProperties },
  { additionalProperties: true },
);
export type PostChangeBody = StaticDecode<typeof PostChangeBodySchema>;

/** The desk's preview: unsaved changes over the post as it is (no version: it saves nothing). */
export const PostPreviewBodySchema = Type.Object(
  { version: Type.Optional(Type.Unknown()), ...changeProperties },
  { additionalProperties: true },
);
export type PostPreviewBody = StaticDecode<typeof PostPreviewBodySchema>;

/** POST …/publish: now, or at `at` (scheduled when it is ahead). */
export const PublishBodySchema = Type.Object(
  { version, at: Type.Optional(nullable(publishTimeSchema)) },
  strict,
);
export type PublishBody = StaticDecode<typeof PublishBodySchema>;

/** POST …/unpublish and …/submit. */
export const VersionBodySchema = Type.Object({ version }, strict);
export type VersionBody = StaticDecode<typeof VersionBodySchema>;

/** POST …/revisions/:revision/restore: over the version the writer read, if it says. */
export const RestoreBodySchema = Type.Object({ version: Type.Optional(version) }, strict);
export type RestoreBody = StaticDecode<typeof RestoreBodySchema>;

/** PUT /api/desk/topics/:slug: a topic's description, empty for none. */
export const TopicBodySchema = Type.Object(
  {
    description: Type.String({
      errorMessage: { type: 'must be text (empty for none)', required: 'is required' },
    }),
  },
  strict,
);
export type TopicBody = StaticDecode<typeof TopicBodySchema>;
