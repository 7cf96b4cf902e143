import { Type, type Static } from 'typebox';
import { MAX_EMAIL_LENGTH } from './account-rules.js';
import { MAX_PODCAST_AUTHOR } from './podcasts.js';
import {
  LINK_PLACEMENTS,
  MAX_LINK_ADDRESS,
  MAX_LINK_LABEL,
  MAX_SECTION_DESCRIPTION,
  MAX_SECTION_NAME,
  SECTION_LISTS,
  SECTION_SLUG_PATTERN,
} from './section-rules.js';

// The HTTP schemas of the desk's sections and links (`/api/desk/sections`, `/api/desk/links`);
// contract/sections.ts has what the site's pages use, without TypeBox in their bundle.

export const SectionSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  /** 1 for the first in the menu. */
  position: Type.Integer(),
  inMenu: Type.Boolean(),
  lists: Type.Union([
    Type.Literal(SECTION_LISTS[0]),
    Type.Literal(SECTION_LISTS[1]),
    Type.Literal(SECTION_LISTS[2]),
    Type.Literal(SECTION_LISTS[3]),
  ]),
  /** `#rrggbb`, one of SECTION_COLORS. */
  color: Type.String(),
});

/**
 * A podcast's words about itself (contract/podcasts.ts SectionPodcast): the section store checks
 * the category against Apple's list, the cover's size and the address, each in its own words.
 */
export const PodcastSchema = Type.Object(
  {
    author: Type.String({ minLength: 1, maxLength: MAX_PODCAST_AUTHOR }),
    /** One of PODCAST_CATEGORIES: `News`, `Arts > Books`. */
    category: Type.String({ minLength: 1, maxLength: 80 }),
    explicit: Type.Boolean(),
    /** An uploaded image's address: square, at least 1400 pixels a side. */
    image: Type.String({ minLength: 1, maxLength: 300 }),
    /** Where the directories write about the show (`itunes:owner`); null or left out: none. */
    email: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: MAX_EMAIL_LENGTH }), Type.Null()]),
    ),
  },
  { additionalProperties: false },
);

/** A section as the desk reads it: what the site's pages carry, and whether it is a podcast. */
export const DeskSectionSchema = Type.Object({
  ...SectionSchema.properties,
  podcast: Type.Union([
    Type.Object({
      ...PodcastSchema.properties,
      email: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ]),
});
export type DeskSection = Static<typeof DeskSectionSchema>;

const Lists = Type.Union([
  Type.Literal(SECTION_LISTS[0]),
  Type.Literal(SECTION_LISTS[1]),
  Type.Literal(SECTION_LISTS[2]),
  Type.Literal(SECTION_LISTS[3]),
]);
const Name = Type.String({ minLength: 1, maxLength: MAX_SECTION_NAME });
const Slug = Type.String({ minLength: 1, maxLength: 60, pattern: SECTION_SLUG_PATTERN });
const Description = Type.String({ maxLength: MAX_SECTION_DESCRIPTION });
/** `#rrggbb`; the section store takes only the palette's (SECTION_COLORS). */
const Color = Type.String({ pattern: '^#[0-9a-f]{6}$' });

/**
 * POST /api/desk/sections: a new section, of articles unless `lists` names a special kind no
 * section lists now (each has at most one).
 */
export const SectionCreateSchema = Type.Object(
  {
    name: Name,
    slug: Slug,
    description: Type.Optional(Description),
    inMenu: Type.Boolean(),
    lists: Type.Optional(Lists),
    /** The palette's first free colour when left out. */
    color: Type.Optional(Color),
  },
  { additionalProperties: false },
);
export type SectionCreate = Static<typeof SectionCreateSchema>;

/**
 * PATCH /api/desk/sections/:id: what changes (at least one); `position` moves it (1: first);
 * `podcast` makes a section of articles a podcast (or changes it), null stops it.
 */
export const SectionChangeSchema = Type.Object(
  {
    name: Type.Optional(Name),
    slug: Type.Optional(Slug),
    description: Type.Optional(Description),
    inMenu: Type.Optional(Type.Boolean()),
    color: Type.Optional(Color),
    position: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    podcast: Type.Optional(Type.Union([PodcastSchema, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type SectionChange = Static<typeof SectionChangeSchema>;

/**
 * DELETE /api/desk/sections/:id, in its query or its JSON body: where the section's posts (drafts
 * and the Trash's included) go. `moveTo`: the slug of another section listing the same kind (the
 * articles take its name as their section); `posts: 'trash'`: into the Trash, restorable for 30
 * days. A section with posts and neither is refused (409); one without needs neither.
 */
export const SectionDeleteSchema = Type.Object(
  {
    moveTo: Type.Optional(Slug),
    posts: Type.Optional(Type.Literal('trash')),
  },
  { additionalProperties: false },
);
export type SectionDelete = Static<typeof SectionDeleteSchema>;

export const SiteLinkSchema = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  /** A path of the site (`/perks`) or an https address (opened in a new tab). */
  address: Type.String(),
  placement: Type.Union([Type.Literal(LINK_PLACEMENTS[0]), Type.Literal(LINK_PLACEMENTS[1])]),
  /** 1 for the first of its placement. */
  position: Type.Integer(),
});

/** A site path (`/perks`, `/topics/x`) or an http(s) address. */
export const LINK_ADDRESS_PATTERN = '^(/[A-Za-z0-9._~/?=&%#-]*|https?://[^\\s]+)$';
const Label = Type.String({ minLength: 1, maxLength: MAX_LINK_LABEL });
const Address = Type.String({
  minLength: 1,
  maxLength: MAX_LINK_ADDRESS,
  pattern: LINK_ADDRESS_PATTERN,
});
const Placement = Type.Union([Type.Literal(LINK_PLACEMENTS[0]), Type.Literal(LINK_PLACEMENTS[1])]);

/** POST /api/desk/links: a link at the end of its placement. */
export const LinkCreateSchema = Type.Object(
  { label: Label, address: Address, placement: Placement },
  { additionalProperties: false },
);
export type LinkCreate = Static<typeof LinkCreateSchema>;

/** PATCH /api/desk/links/:id. */
export const LinkChangeSchema = Type.Object(
  {
    label: Type.Optional(Label),
    address: Type.Optional(Address),
    placement: Type.Optional(Placement),
    position: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type LinkChange = Static<typeof LinkChangeSchema>;

/** GET /api/desk/sections: the navigation, and how many posts each section has (by its id). */
export const DeskSectionsSchema = Type.Object({
  sections: Type.Array(DeskSectionSchema),
  links: Type.Array(SiteLinkSchema),
  /** The posts not in the Trash, drafts included, each section lists, by the section's id. */
  postCounts: Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.Integer({ minimum: 0 })),
});
export type DeskSections = Static<typeof DeskSectionsSchema>;
