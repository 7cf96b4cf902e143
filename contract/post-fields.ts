import { z } from 'zod';
import { articleCategories, boycottStatuses } from './content-types.js';
import { parseUploadUrl } from './images.js';
import { MAX_TAGS, topicSlug } from './topics.js';

// The front matter of each kind of content file (content/FORMAT.md), which is also each kind of
// post's fields (contract/posts.ts): the import checks files with these schemas, the desk's API
// the posts it is sent. Unknown fields are errors, so a misspelt name cannot slip through.

/** A post's id: optional in a file (a new post gets the next free one), kept by an export. */
const id = z.int('must be a whole number').positive('must be a positive whole number');
const slug = z
  .string('must be text')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case words joined by hyphens');
const text = z.string('must be text').trim().min(1, 'must not be empty');
const shortText = text.max(200, 'must be at most 200 characters');
/** A tag (contract/topics.ts) as a writer types it: a short name with letters or digits. */
const tagSchema = z
  .string('must be text')
  .trim()
  .min(1, 'must not be empty')
  .max(40, 'must be at most 40 characters')
  .refine((name) => topicSlug(name) !== '', 'must have a letter or a digit');

const tagsSchema = z
  .array(tagSchema, 'must be a list of tags')
  .max(MAX_TAGS, `must be at most ${MAX_TAGS} tags`)
  .refine(
    (tags) => new Set(tags.map(topicSlug)).size === tags.length,
    'must not name the same tag twice',
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

// zod's ISO formats refuse days that do not exist (February 30) and times such as 24:00.
const isoDate = z.iso
  .date('must be an ISO date such as 2024-03-01')
  .refine(isWithinDateRange, { error: dateRangeMessage });

/**
 * When a post is published or scheduled (`at`): a real date and time with its zone, so that it
 * means the same moment whichever server reads it.
 */
export const publishTimeSchema = z.iso
  .datetime({
    offset: true,
    error: 'must be an ISO date and time with its zone, such as 2026-12-01T09:00:00Z',
  })
  .refine(isWithinDateRange, { error: dateRangeMessage });

/**
 * When a post in a content file goes live: a day (at midnight UTC), or a date and time with its
 * zone, which an export writes for a post published or scheduled at another time of day.
 */
export const publishedAtSchema = z.string('must be text').check((context) => {
  const result = (context.value.includes('T') ? publishTimeSchema : isoDate).safeParse(
    context.value,
  );
  for (const issue of result.error?.issues ?? []) {
    context.issues.push({ code: 'custom', message: issue.message, input: context.value });
  }
});
const webAddress = z.url({ protocol: /^https?$/, error: 'must be an http(s) address' });

export const articleSchema = z.strictObject({
  id: id.optional(),
  slug,
  category: z.enum(articleCategories, `must be one of ${articleCategories.join(', ')}`),
  title: text,
  summary: shortText,
  publishedAt: publishedAtSchema,
  readingMinutes: z
    .int('must be a whole number of minutes')
    .min(1, 'must be between 1 and 60')
    .max(60, 'must be between 1 and 60'),
  /** Topics (contract/topics.ts): each has a page, `/topics/<slug>`. */
  tags: tagsSchema.optional(),
});

export const campaignSchema = z.strictObject({
  id: id.optional(),
  slug,
  category: z.literal('Direct Action', 'must be Direct Action'),
  title: text,
  summary: shortText,
  publishedAt: publishedAtSchema,
  externalLink: webAddress,
  tags: tagsSchema.optional(),
});

export const boycottSchema = z.strictObject({
  id: id.optional(),
  slug,
  title: text,
  reason: text,
  status: z.enum(boycottStatuses, `must be one of ${boycottStatuses.join(', ')}`),
  alternative: z.strictObject(
    { name: text, description: text },
    'must have a name and a description',
  ),
  updates: z
    .array(z.strictObject({ date: isoDate, note: text }), 'must be a list of dated notes')
    .min(2, 'must have at least two updates'),
});

export const resourceGroupSchema = z.strictObject({
  id: id.optional(),
  slug,
  category: text,
  description: text,
  /** The day its list last changed: the sitemap's lastmod of /empowerment. */
  updatedAt: isoDate,
  resources: z
    .array(
      z.strictObject({ id, title: text, summary: shortText, link: webAddress }),
      'must be a list of resources',
    )
    .min(4, 'must list at least four resources'),
});

export const pageSchema = z.strictObject({
  id: id.optional(),
  title: text,
  description: shortText,
  /** The day its text last changed: the sitemap's lastmod of the page that shows it. */
  updatedAt: isoDate,
  /** Shipped wording the operator should adapt (policies, topic intros); the page says so. */
  template: z.literal(true, 'must be true, or left out').optional(),
  /** Slugs of articles, campaigns or resource groups listed under the page's text. */
  related: z
    .array(slug, 'must be a list of slugs')
    .min(1, 'must list at least one slug')
    .optional(),
});

export type ArticleFrontMatter = z.infer<typeof articleSchema>;
export type CampaignFrontMatter = z.infer<typeof campaignSchema>;
export type BoycottFrontMatter = z.infer<typeof boycottSchema>;
export type ResourceGroupFrontMatter = z.infer<typeof resourceGroupSchema>;
export type PageFrontMatter = z.infer<typeof pageSchema>;

/**
 * What each kind keeps besides the columns every post has (id, slug, title, publishedAt…): its
 * front matter without those, by the same names, with a boycott's `status` as `boycottStatus` (a
 * post has a status of its own). A resource group's title is its `category`; a page's slug names
 * the screen that shows it. The desk's API checks a post's fields with these.
 */
export const postFieldSchemas = {
  article: articleSchema.omit({ id: true, slug: true, title: true, publishedAt: true }),
  campaign: campaignSchema.omit({ id: true, slug: true, title: true, publishedAt: true }),
  boycott: boycottSchema
    .omit({ id: true, slug: true, title: true, status: true })
    .extend({ boycottStatus: boycottSchema.shape.status }),
  resources: resourceGroupSchema.omit({ id: true, slug: true, updatedAt: true }),
  page: pageSchema.omit({ id: true, title: true, updatedAt: true }),
  newsletter: z.strictObject({
    summary: text.max(300, 'must be at most 300 characters'),
    articles: z.array(slug, 'must be a list of article slugs').max(6).default([]),
    sample: z.boolean('must be true or false').default(false),
  }),
} as const;

/** The longest body a post may have, in characters (UTF-16 code units, as `length` counts). */
export const MAX_BODY_CHARS = 200_000;

/**
 * The largest request that writes a post: its body at three bytes a character (the most one code
 * unit takes in UTF-8 as JSON.stringify writes it) and 64 KiB, the app's limit for any other
 * request, for the other fields.
 */
export const MAX_POST_REQUEST_BYTES = MAX_BODY_CHARS * 3 + 64 * 1024;

/** The columns every post has that a writer sets (the rest the server keeps). */
export const postCommonSchema = z.strictObject({
  slug,
  title: text.max(200, 'must be at most 200 characters'),
  /** Markdown (content/FORMAT.md's body rules), empty for kinds without a body. */
  body: z.string('must be text').max(MAX_BODY_CHARS, 'must be at most 200,000 characters'),
  visibility: z.enum(['public', 'members'], 'must be public or members'),
  /**
   * An image uploaded here, by the rule for images in the body: any other path could be `/\host`
   * (which browsers read as `//host`) or one of the site's own addresses.
   */
  featureImage: z
    .string('must be text')
    .refine(
      (url) => parseUploadUrl(url) !== null,
      "must be an image uploaded to this site (the desk's Upload image), such as /uploads/<id>-1200x800.webp",
    )
    .nullable(),
  featureImageAlt: z.string('must be text').max(500, 'must be at most 500 characters').nullable(),
  seoTitle: z.string('must be text').max(120, 'must be at most 120 characters').nullable(),
  seoDescription: z.string('must be text').max(300, 'must be at most 300 characters').nullable(),
});

/**
 * What a content file may say of the columns every post has, besides its kind's own front matter
 * (content/FORMAT.md), each by the desk's rule; an export writes each one set. `membersOnly` left
 * out says nothing, which an import tells from `false` (it never widens a post without being told).
 * `publishedAt` is here for the kinds whose front matter has no date of its own.
 */
export const postFileColumnsSchema = z.strictObject({
  membersOnly: z.boolean('must be true or false').optional(),
  publishedAt: publishedAtSchema.optional(),
  featureImage: postCommonSchema.shape.featureImage.optional(),
  featureImageAlt: postCommonSchema.shape.featureImageAlt.optional(),
  seoTitle: postCommonSchema.shape.seoTitle.optional(),
  seoDescription: postCommonSchema.shape.seoDescription.optional(),
});
export type PostFileColumns = z.infer<typeof postFileColumnsSchema>;
