import { Type, type StaticDecode, type TProperties } from 'typebox';
import { boycottStatuses } from './content-types.js';
import {
  idField,
  isoDateField,
  isoDateTimeField,
  nullable,
  oneOfField,
  slugField,
  stringField,
  lineField,
  textField,
  webAddressField,
  yesNoField,
} from './field-schemas.js';
import { isRemoteImageUrl, parseUploadUrl } from './images.js';
import { readBySchema } from './schema-problems.js';
import { MAX_TAGS, topicSlug } from './topics.js';
import { MAX_POST_AUTHORS } from './authors.js';
import { POST_VISIBILITIES } from './reading.js';
import { MAX_TIERS } from './tiers.js';
import { MAX_SECTION_NAME } from './section-rules.js';

// The front matter of each kind of content file (content/FORMAT.md), which is also each kind of
// post's fields (contract/posts.ts): the import checks files with these schemas, the desk's API
// the posts it is sent. Unknown fields are errors, so a misspelt name cannot slip through.

const strict = { additionalProperties: false } as const;

/** A post's id: optional in a file (a new post gets the next free one), kept by an export. */
const id = idField;
const slug = slugField;
const text = () => textField();
const shortText = () => textField(200);
/** A title or a name within a post: one line. */
const line = () => lineField();
/** A tag (contract/topics.ts) as a writer types it: a short name with letters or digits. */
export const tagSchema = Type.Refine(
  lineField(40),
  (name) => topicSlug(name) !== '',
  () => 'must have a letter or a digit',
);

const tagsSchema = Type.Refine(
  Type.Array(tagSchema, {
    maxItems: MAX_TAGS,
    errorMessage: { type: 'must be a list of tags', maxItems: `must be at most ${MAX_TAGS} tags` },
  }),
  (tags) => new Set(tags.map(topicSlug)).size === tags.length,
  () => 'must not name the same tag twice',
);

/**
 * The years a post's dates fall in: the shipped boycotts go back to 1955; more than a hundred
 * years ahead is a slip (year 9999, say), never a plan.
 */
const EARLIEST_DATE = Date.UTC(1900, 0, 1);
const latestYear = () => new Date().getUTCFullYear() + 100;
const dateRangeMessage = () => `must be from 1900-01-01 to ${latestYear()}-12-31`;
/** A date outside those years; one that does not parse is the format's to name. */
function isWithinDateRange(text: string): boolean {
  const time = Date.parse(text);
  if (Number.isNaN(time)) return true;
  return time >= EARLIEST_DATE && new Date(time).getUTCFullYear() <= latestYear();
}

// Days that do not exist (February 30) and times such as 24:00 are refused by their patterns.
const isoDate = () =>
  Type.Refine(
    isoDateField('must be an ISO date such as 2024-03-01'),
    isWithinDateRange,
    dateRangeMessage,
  );

/**
 * When a post is published or scheduled (`at`): a real date and time with its zone, so that it
 * means the same moment whichever server reads it.
 */
export const publishTimeSchema = Type.Refine(
  isoDateTimeField('must be an ISO date and time with its zone, such as 2026-12-01T09:00:00Z'),
  isWithinDateRange,
  dateRangeMessage,
);

/** Why a content file's `publishedAt` is wrong, or null: by the rule of a day, or of a moment. */
function publishedAtProblem(text: string): string | null {
  const reading = readBySchema(text.includes('T') ? publishTimeSchema : isoDate(), text);
  return reading.ok ? null : (reading.problems[0]?.message ?? null);
}

/**
 * When a post in a content file goes live: a day (at midnight UTC), or a date and time with its
 * zone, which an export writes for a post published or scheduled at another time of day.
 */
export const publishedAtSchema = Type.Refine(
  Type.String({ errorMessage: 'must be text' }),
  (text) => publishedAtProblem(text) === null,
  (text) => publishedAtProblem(text) ?? '',
);
const webAddress = () => webAddressField(['http', 'https'], 'must be an http(s) address');

const articleFields = {
  /** The name of one of the site's sections of articles: the server checks it names one. */
  category: lineField(MAX_SECTION_NAME),
  summary: shortText(),
  readingMinutes: Type.Integer({
    minimum: 1,
    maximum: 60,
    errorMessage: {
      type: 'must be a whole number of minutes',
      minimum: 'must be between 1 and 60',
      maximum: 'must be between 1 and 60',
    },
  }),
  /** Topics (contract/topics.ts): each has a page, `/topics/<slug>`. */
  tags: Type.Optional(tagsSchema),
};

/** The file of a kind read by its date (an article, a campaign): what it is, when, its fields. */
const datedFileSchema = <Fields extends TProperties>(fields: Fields) =>
  Type.Object(
    {
      id: Type.Optional(id()),
      slug: slug(),
      title: line(),
      publishedAt: publishedAtSchema,
      ...fields,
    },
    strict,
  );

export const articleSchema = datedFileSchema(articleFields);

const campaignFields = {
  category: Type.Literal('Direct Action', { errorMessage: 'must be Direct Action' }),
  summary: shortText(),
  externalLink: webAddress(),
  tags: Type.Optional(tagsSchema),
};

export const campaignSchema = datedFileSchema(campaignFields);

/**
 * The fewest updates a boycott that is or goes live has. A draft may have fewer (its story is
 * still being written): publishing and scheduling check it (server/src/content/post-validation.ts).
 */
export const MIN_LIVE_BOYCOTT_UPDATES = 2;

const boycottStatus = oneOfField(boycottStatuses);
/** A boycott's dated notes; `minItems` the fewest it must have. */
const boycottUpdates = (minItems?: number) =>
  Type.Array(Type.Object({ date: isoDate(), note: text() }, strict), {
    ...(minItems !== undefined && { minItems }),
    errorMessage: {
      type: 'must be a list of dated notes',
      minItems: 'must have at least two updates',
    },
  });
const boycottFields = {
  reason: text(),
  alternative: Type.Object(
    { name: line(), description: text() },
    { ...strict, errorMessage: { type: 'must have a name and a description' } },
  ),
};

/** A boycott's file: a shipped or exported boycott tells its story in at least two updates. */
export const boycottSchema = Type.Object(
  {
    id: Type.Optional(id()),
    slug: slug(),
    title: line(),
    ...boycottFields,
    status: boycottStatus,
    updates: boycottUpdates(MIN_LIVE_BOYCOTT_UPDATES),
  },
  strict,
);

const resourceGroupFields = {
  category: line(),
  description: text(),
  resources: Type.Array(
    Type.Object({ id: id(), title: line(), summary: shortText(), link: webAddress() }, strict),
    {
      minItems: 4,
      errorMessage: {
        type: 'must be a list of resources',
        minItems: 'must list at least four resources',
      },
    },
  ),
};

export const resourceGroupSchema = Type.Object(
  {
    id: Type.Optional(id()),
    slug: slug(),
    ...resourceGroupFields,
    /** The day its list last changed: the sitemap's lastmod of /empowerment. */
    updatedAt: isoDate(),
  },
  strict,
);

const pageFields = {
  description: shortText(),
  /** Shipped wording the operator should adapt (policies, topic intros); the page says so. */
  template: Type.Optional(Type.Literal(true, { errorMessage: 'must be true, or left out' })),
  /** Slugs of articles, campaigns or resource groups listed under the page's text. */
  related: Type.Optional(
    Type.Array(slug(), {
      minItems: 1,
      errorMessage: { type: 'must be a list of slugs', minItems: 'must list at least one slug' },
    }),
  ),
};

export const pageSchema = Type.Object(
  {
    id: Type.Optional(id()),
    title: line(),
    ...pageFields,
    /** The day its text last changed: the sitemap's lastmod of the page that shows it. */
    updatedAt: isoDate(),
  },
  strict,
);

export type ArticleFrontMatter = StaticDecode<typeof articleSchema>;
export type CampaignFrontMatter = StaticDecode<typeof campaignSchema>;
export type BoycottFrontMatter = StaticDecode<typeof boycottSchema>;
export type ResourceGroupFrontMatter = StaticDecode<typeof resourceGroupSchema>;
export type PageFrontMatter = StaticDecode<typeof pageSchema>;

/**
 * What each kind keeps besides the columns every post has (id, slug, title, publishedAt…): its
 * front matter without those, by the same names, with a boycott's `status` as `boycottStatus` (a
 * post has a status of its own). A resource group's title is its `category`; a page's slug names
 * the screen that shows it. The desk's API checks a post's fields with these.
 */
export const postFieldSchemas = {
  article: Type.Object(articleFields, strict),
  campaign: Type.Object(campaignFields, strict),
  boycott: Type.Object(
    { ...boycottFields, updates: boycottUpdates(), boycottStatus: boycottStatus },
    strict,
  ),
  resources: Type.Object(resourceGroupFields, strict),
  page: Type.Object(pageFields, strict),
  newsletter: Type.Object(
    {
      summary: textField(300),
      articles: Type.Array(slug(), {
        maxItems: 6,
        default: [],
        errorMessage: {
          type: 'must be a list of article slugs',
          maxItems: 'must list at most 6 articles',
        },
      }),
      sample: yesNoField({ default: false }),
    },
    strict,
  ),
} as const;

/** The longest body a post may have, in characters (UTF-16 code units, as `length` counts). */
export const MAX_BODY_CHARS = 200_000;

/**
 * The largest request that writes a post: its body at three bytes a character (the most one code
 * unit takes in UTF-8 as JSON.stringify writes it) and 64 KiB, the app's limit for any other
 * request, for the other fields.
 */
export const MAX_POST_REQUEST_BYTES = MAX_BODY_CHARS * 3 + 64 * 1024;

/**
 * A post's authors (contract/authors.ts): their slugs in byline order, at most ten, none twice.
 * Whether each is an author's, and that a post keeps at least one, the server checks against the
 * database (server/src/content/post-authors.ts).
 */
const authorsSchema = Type.Refine(
  Type.Array(slug(), {
    maxItems: MAX_POST_AUTHORS,
    errorMessage: {
      type: "must be a list of authors' slugs",
      maxItems: `must name at most ${MAX_POST_AUTHORS}`,
    },
  }),
  (slugs) => new Set(slugs).size === slugs.length,
  () => 'must not name an author twice',
);

/** The columns every post has that a writer sets (the rest the server keeps). */
export const postCommonSchema = Type.Object(
  {
    slug: slug(),
    title: lineField(200),
    /** Markdown (content/FORMAT.md's body rules), empty for kinds without a body. */
    body: stringField(MAX_BODY_CHARS),
    visibility: oneOfField(POST_VISIBILITIES),
    /** With visibility `tiers`, the tiers' slugs (contract/reading.ts); else left out or empty. */
    tiers: Type.Array(slugField(), {
      maxItems: MAX_TIERS,
      errorMessage: {
        type: "must be a list of tiers' slugs",
        maxItems: `must name at most ${MAX_TIERS}`,
      },
    }),
    /**
     * An image uploaded here, by the rule for images in the body: any other path could be `/\host`
     * (which browsers read as `//host`) or one of the site's own addresses. Or, as in the body, an
     * image an import could not fetch, kept at its old http(s) address until it is fetched again
     * (the desk sends a post's feature image back with every save).
     */
    featureImage: nullable(
      Type.Refine(
        Type.String({ errorMessage: 'must be text' }),
        (url) => parseUploadUrl(url) !== null || isRemoteImageUrl(url),
        () =>
          "must be an image uploaded to this site (the desk's Upload image), such as /uploads/<id>-1200x800.webp",
      ),
    ),
    featureImageAlt: nullable(stringField(500)),
    seoTitle: nullable(stringField(120)),
    seoDescription: nullable(stringField(300)),
    authors: authorsSchema,
  },
  strict,
);
export type PostCommon = StaticDecode<typeof postCommonSchema>;

/**
 * What a content file may say of the columns every post has, besides its kind's own front matter
 * (content/FORMAT.md), each by the desk's rule; an export writes each one set. Who reads it:
 * `membersOnly` (true: `members`, false: `public`), or `visibility` (contract/reading.ts) with, for
 * `tiers`, the tiers' slugs in `tiers`; an export writes `membersOnly` for a public or members'
 * post, as files did before the other visibilities. Neither says nothing, which an import tells
 * from public (it never widens a post without being told). `publishedAt` is here for the kinds
 * whose front matter has no date of its own.
 */
export const postFileColumnsSchema = Type.Object(
  {
    membersOnly: Type.Optional(yesNoField()),
    visibility: Type.Optional(postCommonSchema.properties.visibility),
    tiers: Type.Optional(postCommonSchema.properties.tiers),
    publishedAt: Type.Optional(publishedAtSchema),
    featureImage: Type.Optional(postCommonSchema.properties.featureImage),
    featureImageAlt: Type.Optional(postCommonSchema.properties.featureImageAlt),
    seoTitle: Type.Optional(postCommonSchema.properties.seoTitle),
    seoDescription: Type.Optional(postCommonSchema.properties.seoDescription),
    authors: Type.Optional(authorsSchema),
  },
  strict,
);
export type PostFileColumns = StaticDecode<typeof postFileColumnsSchema>;
