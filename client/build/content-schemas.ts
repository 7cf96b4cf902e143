import { z } from 'zod';
import { articleCategories, boycottStatuses } from '../src/features/content/types.js';

// The front matter of each kind of content file (content/FORMAT.md). Unknown fields are errors,
// so a misspelt field name fails the build instead of silently going missing.

const id = z.int('must be a whole number').positive('must be a positive whole number');
const slug = z
  .string('must be text')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case words joined by hyphens');
const text = z.string('must be text').trim().min(1, 'must not be empty');
const shortText = text.max(200, 'must be at most 200 characters');
const isoDate = z.iso.date('must be an ISO date such as 2024-03-01');
const webAddress = z.url({ protocol: /^https?$/, error: 'must be an http(s) address' });

export const articleSchema = z.strictObject({
  id,
  slug,
  category: z.enum(articleCategories, `must be one of ${articleCategories.join(', ')}`),
  title: text,
  summary: shortText,
  publishedAt: isoDate,
  readingMinutes: z
    .int('must be a whole number of minutes')
    .min(1, 'must be between 1 and 60')
    .max(60, 'must be between 1 and 60'),
});

export const campaignSchema = z.strictObject({
  id,
  slug,
  category: z.literal('Direct Action', 'must be Direct Action'),
  title: text,
  summary: shortText,
  publishedAt: isoDate,
  externalLink: webAddress,
});

export const boycottSchema = z.strictObject({
  id,
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
  id,
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
