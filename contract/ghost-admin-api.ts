import { Type, type Static, type TSchema } from 'typebox';

// The bodies Ghost's Admin API takes (`/ghost/api/admin`, docs/ghost-api.md#admin-api), as
// Ghost's clients send them: one resource in a list under its name (`{"posts": [{…}]}`). Ghost's
// objects carry more fields than the site keeps (`featured`, `og_*`…): those are taken
// and ignored, so each object allows fields it does not name. What a field must say beyond its
// type (a title's length, a known status, a valid address) is the Admin API modules' rule
// (server/src/ghost-admin/), answered as Ghost's ValidationError.

const text = Type.Union([Type.String(), Type.Null()]);
const optionalText = Type.Optional(text);

/** The one object a Ghost body carries, under its resource's name. */
const oneOf = <T extends TSchema>(item: T) => Type.Tuple([item]);

/** A post or a page as Ghost's clients write it: the fields the site reads. */
export const GhostPostInputSchema = Type.Object(
  {
    title: optionalText,
    slug: optionalText,
    /** The body, as HTML (`?source=html`), or Ghost's editor documents as JSON text. */
    html: optionalText,
    lexical: optionalText,
    mobiledoc: optionalText,
    /**
     * Ghost's word for who may read it: `public`; `members`, anyone signed up (the site's
     * `registered`); `paid`, any paying member (the site's `members`); `tiers`, the members of
     * the tiers `tiers` names.
     */
    visibility: Type.Optional(Type.String()),
    /**
     * With visibility `tiers`, the tiers whose members may read it: `{id}` (as the Admin API's
     * `tiers/` answers it), `{slug}` or a slug; Ghost's free tier is left out. Taken and left
     * alone with any other visibility (Ghost's clients send a public post's every tier back).
     */
    tiers: Type.Optional(
      Type.Union([
        Type.Array(
          Type.Union([
            Type.String(),
            Type.Object(
              { id: Type.Optional(Type.String()), slug: Type.Optional(Type.String()) },
              { additionalProperties: true },
            ),
          ]),
        ),
        Type.Null(),
      ]),
    ),
    feature_image: optionalText,
    feature_image_alt: optionalText,
    meta_title: optionalText,
    meta_description: optionalText,
    custom_excerpt: optionalText,
    /** Names, `{name}` or `{slug}`. */
    tags: Type.Optional(
      Type.Union([
        Type.Array(
          Type.Union([
            Type.String(),
            Type.Object(
              { name: Type.Optional(Type.String()), slug: Type.Optional(Type.String()) },
              { additionalProperties: true },
            ),
          ]),
        ),
        Type.Null(),
      ]),
    ),
    /** `draft`, `scheduled` or `published`. */
    status: Type.Optional(Type.String()),
    published_at: optionalText,
    /** The `updated_at` the client read: a change over a newer one is a 409. */
    updated_at: optionalText,
  },
  { additionalProperties: true },
);
export type GhostPostInput = Static<typeof GhostPostInputSchema>;

/** POST and PUT `posts/`. */
export const GhostPostsBodySchema = Type.Object({ posts: oneOf(GhostPostInputSchema) });
/** POST and PUT `pages/`. */
export const GhostPagesBodySchema = Type.Object({ pages: oneOf(GhostPostInputSchema) });
export type GhostPostBody =
  Static<typeof GhostPostsBodySchema> | Static<typeof GhostPagesBodySchema>;

/** A member as Ghost's clients write one: the fields the site keeps. */
export const GhostMemberInputSchema = Type.Object(
  {
    email: Type.Optional(Type.String()),
    name: optionalText,
    note: optionalText,
    /** Names or `{name}`. */
    labels: Type.Optional(
      Type.Array(
        Type.Union([
          Type.String(),
          Type.Object({ name: Type.String() }, { additionalProperties: true }),
        ]),
      ),
    ),
    /** Consent to the newsletter: `true`, or any newsletter in `newsletters`. */
    subscribed: Type.Optional(Type.Boolean()),
    newsletters: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
  },
  { additionalProperties: true },
);
export type GhostMemberInput = Static<typeof GhostMemberInputSchema>;

/** POST and PUT `members/`. */
export const GhostMembersBodySchema = Type.Object({ members: oneOf(GhostMemberInputSchema) });
export type GhostMembersBody = Static<typeof GhostMembersBodySchema>;
