import { z } from 'zod';
import { PERK_CATEGORIES } from './perks.js';

// The front matter of content/perks/<id>.md, read by the content build (for the client) and by
// the server at start (which offers may be redeemed, until when). Unknown fields are errors.

const text = z.string('must be text').trim().min(1, 'must not be empty');

export const perkSchema = z.strictObject({
  id: z
    .string('must be text')
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case words joined by hyphens'),
  partner: text.max(80, 'must be at most 80 characters'),
  category: z.enum(PERK_CATEGORIES, `must be one of ${PERK_CATEGORIES.join(', ')}`),
  offer: text.max(120, 'must be at most 120 characters'),
  terms: text.max(400, 'must be at most 400 characters'),
  howToRedeem: text.max(400, 'must be at most 400 characters'),
  expiresOn: z.iso.date('must be an ISO date such as 2027-06-30'),
  /** The day the offer last changed: the sitemap's lastmod of /perks is the newest. */
  updatedAt: z.iso.date('must be an ISO date such as 2026-11-23'),
  website: z.url({ protocol: /^https$/, error: 'must be an https address' }),
  sample: z.boolean('must be true or false').default(false),
});

/**
 * How a perk is redeemed, from the server-only perks/redemptions.json: one code every member
 * shares, one link, or a pool of single-use codes loaded with `npm run perks:import`.
 */
export const redemptionSchema = z.union([
  z.strictObject({ code: text.max(200) }),
  z.strictObject({ link: z.url({ protocol: /^https$/, error: 'must be an https address' }) }),
  z.strictObject({ singleUseCodes: z.literal(true) }),
]);
export const redemptionsSchema = z.record(z.string(), redemptionSchema);
export type RedemptionRule = z.infer<typeof redemptionSchema>;
