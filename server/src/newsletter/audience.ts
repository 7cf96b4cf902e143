import type pg from 'pg';
import {
  EVERYONE,
  type NewsletterAudience,
  type NewsletterReach,
} from '../../../contract/newsletters.js';
import type { ReadingRule } from '../../../contract/reading.js';
import { ACCESS_STATUSES } from '../memberships/derive-membership.js';
import { readTiers, tierBySlug } from '../memberships/tier-catalog.js';
import { accountOfSubscriberSql } from './consent.js';

/**
 * Who a send reaches (contract/newsletters.ts `NEWSLETTER_AUDIENCES`), decided by each confirmed
 * subscriber's account as it is now: its membership while that gives access, and the tier it gives
 * access to. A subscriber without an account is free. The audience is kept with the send
 * (`newsletter_sends`), so a send started again queues the same audience.
 */

/** An audience with its tiers by id, as the queries ask for it. */
export interface ResolvedAudience extends NewsletterAudience {
  tierIds: number[];
}

export const EVERYONE_RESOLVED: ResolvedAudience = { ...EVERYONE, tierIds: [] };

/**
 * For `s`, a newsletter_subscribers row: `m` is the membership of the account at its address
 * (consent.ts: proved yet or not, as an imported member's) while it gives access ($2: the
 * statuses that do), else all nulls (no account, no membership, or none now).
 */
export const ACCESS_JOIN = `LEFT JOIN memberships m
              ON m."userId" = ${accountOfSubscriberSql('s')} AND m."expiresAt" > now()
             AND m."status" = ANY($2::text[])`;

/**
 * Whether `s` (with ACCESS_JOIN's `m`) is of the audience $3 (its name) and $4 (its tiers' ids):
 * one condition for the send, its count and its dry run.
 */
export const IN_AUDIENCE = `($3 = 'all'
              OR ($3 = 'free' AND m."userId" IS NULL)
              OR ($3 = 'paid' AND m."userId" IS NOT NULL)
              OR ($3 = 'tiers' AND m."tierId" = ANY($4::int[])))`;

/** The parameters $2 to $4 of ACCESS_JOIN and IN_AUDIENCE. */
export const audienceParams = (audience: ResolvedAudience) => [
  [...ACCESS_STATUSES],
  audience.audience,
  audience.tierIds,
];

/** The audience with its tiers' ids: a slug of no tier is a 400 `unknown_tier`. */
export async function resolveAudience(
  pool: Pick<pg.Pool, 'query'>,
  audience: NewsletterAudience,
): Promise<ResolvedAudience> {
  if (audience.audience !== 'tiers') return { ...audience, tiers: [], tierIds: [] };
  const tiers = await readTiers(pool);
  const named = audience.tiers.map((slug) => tierBySlug(tiers, slug));
  return { audience: 'tiers', tiers: named.map((t) => t.slug), tierIds: named.map((t) => t.id) };
}

/**
 * Who a send goes to when it does not say: as before tiers, everyone, except that a newsletter
 * issue for paying members goes to paying members alone (what a members-only issue always did),
 * and one for tiers to those tiers' members. An article goes to everyone, each reader getting
 * what the rule lets them read.
 */
export function audienceByDefault(kind: string, rule: ReadingRule): NewsletterAudience {
  if (kind !== 'newsletter') return EVERYONE;
  if (rule.visibility === 'members') return { audience: 'paid', tiers: [] };
  if (rule.visibility === 'tiers' && rule.tiers.length > 0) {
    return { audience: 'tiers', tiers: [...rule.tiers] };
  }
  return EVERYONE;
}

/** The audience the issue was last sent to, with its tiers' slugs now; null: never sent. */
export async function readSendAudience(
  pool: Pick<pg.Pool, 'query'>,
  slug: string,
): Promise<NewsletterAudience | null> {
  const { rows } = await pool.query<NewsletterAudience>(
    `SELECT n."audience"::text AS audience,
            ARRAY(SELECT t."slug" FROM "tiers" t WHERE t."id" = ANY(n."tierIds")
                   ORDER BY t."position", t."id") AS tiers
       FROM "newsletter_sends" n WHERE n."issueSlug" = $1`,
    [slug],
  );
  return rows[0] ?? null;
}

/** Keeps the audience the issue is being sent to: the one a send started again takes. */
export async function recordSendAudience(
  pool: Pick<pg.Pool, 'query'>,
  slug: string,
  audience: ResolvedAudience,
): Promise<void> {
  await pool.query(
    `INSERT INTO "newsletter_sends" ("issueSlug", "audience", "tierIds", "updatedAt")
     VALUES ($1, $2::newsletter_audience, $3, now())
     ON CONFLICT ("issueSlug") DO UPDATE
       SET "audience" = excluded."audience", "tierIds" = excluded."tierIds", "updatedAt" = now()`,
    [slug, audience.audience, audience.tierIds],
  );
}

/**
 * How many confirmed subscribers each audience would newly reach: those the issue has not been
 * queued for, by the tier their account gives access to now (one membership an account, so the
 * tiers' counts add up to `paid`).
 */
export async function countReach(
  pool: Pick<pg.Pool, 'query'>,
  slug: string,
): Promise<NewsletterReach> {
  const [{ rows }, tiers] = await Promise.all([
    pool.query<{ tierId: number | null; n: number }>(
      `SELECT m."tierId", count(*)::int AS n
         FROM newsletter_subscribers s
         ${ACCESS_JOIN}
        WHERE s."state" = 'confirmed'
          AND NOT EXISTS (SELECT 1 FROM newsletter_deliveries d
                           WHERE d."issueSlug" = $1 AND d."subscriberId" = s."id")
        GROUP BY 1`,
      [slug, [...ACCESS_STATUSES]],
    ),
    readTiers(pool),
  ]);
  const byTier = new Map(rows.map((row) => [row.tierId, row.n]));
  const free = byTier.get(null) ?? 0;
  const all = rows.reduce((sum, row) => sum + row.n, 0);
  return {
    all,
    free,
    paid: all - free,
    tiers: tiers.map((tier) => ({
      slug: tier.slug,
      name: tier.name,
      recipients: byTier.get(tier.id) ?? 0,
    })),
  };
}
