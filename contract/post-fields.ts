import { z } from 'zod';
import { articleCategories, boycottStatuses } from './content-types.js';
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

const isoDate = z.iso.date('must be an ISO date such as 2024-03-01');
const webAddress = z.url({ protocol: /^https?$/, error: 'must be an http(s) address' });

export const articleSchema = z.strictObject({
  id: id.optional(),
  slug,
  category: z.enum(articleCategories, `must be one of ${articleCategories.join(', ')}`),
  title: text,
  summary: shortText,
  publishedAt: isoDate,
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
  publishedAt: isoDate,
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

/** The columns every post has that a writer sets (the rest the server keeps). */
export const postCommonSchema = z.strictObject({
  slug,
  title: text.max(200, 'must be at most 200 characters'),
  /** Markdown (content/FORMAT.md's body rules), empty for kinds without a body. */
  body: z.string('must be text').max(200_000, 'must be at most 200,000 characters'),
  visibility: z.enum(['public', 'members'], 'must be public or members'),
  /** An image on this site (the pages' Content-Security-Policy loads images from the site only). */
  featureImage: z
    .string('must be text')
    .regex(/^\/(?!\/)\S+$/, 'must be a path on this site, such as /uploads/cover.jpg')
    .max(2_000, 'must be at most 2,000 characters')
    .nullable(),
  featureImageAlt: z.string('must be text').max(500, 'must be at most 500 characters').nullable(),
  seoTitle: z.string('must be text').max(120, 'must be at most 120 characters').nullable(),
  seoDescription: z.string('must be text').max(300, 'must be at most 300 characters').nullable(),
});
