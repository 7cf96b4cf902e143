import {
  MAX_TIERS,
  tierSlugOf,
  type NewTier,
  type TierChange,
  type TierPrices,
} from '../../../contract/tiers.js';
import { contentChanged } from '../content/content-changes.js';
import type { Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { ACCESS_STATUSES, FIRST_TIER_ID } from '../memberships/derive-membership.js';
import { readPlans } from '../memberships/plan-catalog.js';
import { readTiers, tierPrices, tierTrialDays, type TierRow } from '../memberships/tier-catalog.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';
import { createTierPlans, setTierPlans } from './plan-actions.js';

/**
 * What an owner can do to the tiers from the desk (contract/tiers.ts,
 * docs/decisions/0030-tiers-and-readers.md): make one with its three plans, change any of it, or
 * delete one nobody holds and nothing names. Each runs in the caller's transaction with its audit
 * entry, one change at a time (every tier's row locked first), and announces a content change: a
 * tier's name, slug, words, prices and place are on the site's pages.
 */

type Actor = Pick<Staff, 'userId' | 'email'>;

/** A tier as its audit entries keep it: its words, place and prices. */
interface AuditedTier {
  slug: string;
  name: string;
  description: string;
  benefits: string[];
  visible: boolean;
  order: number;
  prices: TierPrices;
  trialDays: number;
}

/** Every tier, locked until the transaction ends, in their order. */
async function lockTiers(tx: Tx): Promise<TierRow[]> {
  await tx.query(`SELECT "id" FROM "tiers" ORDER BY "id" FOR UPDATE`);
  return readTiers(tx);
}

function tierNamed(tiers: readonly TierRow[], slug: string): TierRow {
  const tier = tiers.find((row) => row.slug === slug);
  if (!tier) throw new DomainError(404, 'not_found', `There is no "${slug}" tier.`);
  return tier;
}

const slugTaken = (slug: string, by: TierRow) =>
  new DomainError(
    409,
    'tier_exists',
    `slug: the tier "${by.name}" has the slug "${slug}" already.`,
  );

/** A slug made from the name that no tier has: `founder`, else `founder-2`, `founder-3`… */
function freeSlug(tiers: readonly TierRow[], name: string): string {
  const base = tierSlugOf(name);
  const taken = new Set(tiers.map((tier) => tier.slug));
  let slug = base;
  for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
  return slug;
}

/** Puts the tier `id` at `order` (from 0) among the tiers `ids`, the others in their order. */
async function placeTier(tx: Tx, ids: readonly number[], id: number, order: number) {
  const others = ids.filter((each) => each !== id);
  others.splice(Math.min(order, others.length), 0, id);
  await renumberTiers(tx, others);
}

async function renumberTiers(tx: Tx, ids: readonly number[]) {
  await tx.query(
    `UPDATE "tiers" t SET "position" = o.position - 1
       FROM unnest($1::int[]) WITH ORDINALITY AS o(id, position)
      WHERE t."id" = o.id AND t."position" <> o.position - 1`,
    [ids],
  );
}

/** The tier as it is now, for its audit entry and the answer. */
async function auditedTier(tx: Tx, id: number): Promise<AuditedTier> {
  const tier = (await readTiers(tx)).find((row) => row.id === id);
  if (!tier) throw new Error(`Tier ${id} vanished while it was changed`);
  const plans = await readPlans(tx, id);
  return {
    slug: tier.slug,
    name: tier.name,
    description: tier.description,
    benefits: tier.benefits,
    visible: tier.visible,
    order: tier.position,
    prices: tierPrices(plans),
    trialDays: tierTrialDays(plans),
  };
}

/**
 * A new tier with its three plans: its slug made from its name unless given (409 `tier_exists`
 * for one a tier has), placed last unless `order` says where (the tiers after it move down).
 */
export async function createTier(
  tx: Tx,
  actor: Actor,
  input: NewTier,
  options: { currency: string },
): Promise<AuditedTier> {
  const tiers = await lockTiers(tx);
  if (tiers.length >= MAX_TIERS) {
    throw new DomainError(
      409,
      'too_many_tiers',
      `A site has at most ${MAX_TIERS} tiers: delete or change one instead.`,
    );
  }
  const holder = input.slug === undefined ? undefined : tiers.find((t) => t.slug === input.slug);
  if (input.slug !== undefined && holder) throw slugTaken(input.slug, holder);
  const slug = input.slug ?? freeSlug(tiers, input.name);
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO "tiers" ("slug", "name", "description", "benefits", "visible", "position",
                          "updatedAt", "updatedBy")
     VALUES ($1, $2, $3, $4, $5, $6, now(), $7)
     RETURNING "id"`,
    [
      slug,
      input.name,
      input.description ?? '',
      input.benefits ?? [],
      input.visible ?? true,
      tiers.length,
      actor.userId,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('INSERT … RETURNING gave no tier');
  await createTierPlans(tx, actor, id, {
    prices: input.prices,
    trialDays: input.trialDays ?? 0,
    currency: options.currency,
  });
  if (input.order !== undefined && input.order < tiers.length) {
    await placeTier(tx, [...tiers.map((tier) => tier.id), id], id, input.order);
  }
  const after = await auditedTier(tx, id);
  await writeAudit(tx, actor, { action: 'tier_create', targetUserId: null, before: null, after });
  await contentChanged(tx);
  return after;
}

/**
 * An owner's change to a tier: any of its fields. A new slug must be free (409 `tier_exists`);
 * a new `order` moves it among the tiers; prices and trial days change its plans. Answers the
 * tier as it is now (unchanged, with no audit entry, when the change changes nothing).
 */
export async function changeTier(
  tx: Tx,
  actor: Actor,
  slug: string,
  change: TierChange,
): Promise<AuditedTier> {
  const tiers = await lockTiers(tx);
  const tier = tierNamed(tiers, slug);
  const before = await auditedTier(tx, tier.id);
  if (change.slug !== undefined && change.slug !== tier.slug) {
    const holder = tiers.find((other) => other.slug === change.slug);
    if (holder) throw slugTaken(change.slug, holder);
  }
  const { rowCount } = await tx.query(
    `UPDATE "tiers" SET "slug" = $2, "name" = $3, "description" = $4, "benefits" = $5,
                        "visible" = $6, "updatedAt" = now(), "updatedBy" = $7
      WHERE "id" = $1
        AND ("slug", "name", "description", "benefits", "visible")
            IS DISTINCT FROM ($2, $3, $4, $5::text[], $6)`,
    [
      tier.id,
      change.slug ?? tier.slug,
      change.name ?? tier.name,
      change.description ?? tier.description,
      change.benefits ?? tier.benefits,
      change.visible ?? tier.visible,
      actor.userId,
    ],
  );
  const priced = await setTierPlans(tx, actor, tier.id, change);
  if (priced && rowCount === 0) {
    await tx.query(`UPDATE "tiers" SET "updatedAt" = now(), "updatedBy" = $2 WHERE "id" = $1`, [
      tier.id,
      actor.userId,
    ]);
  }
  if (change.order !== undefined && change.order !== tier.position) {
    await placeTier(
      tx,
      tiers.map((each) => each.id),
      tier.id,
      change.order,
    );
  }
  const after = await auditedTier(tx, tier.id);
  if (JSON.stringify(after) === JSON.stringify(before)) return after;
  await writeAudit(tx, actor, { action: 'tier_change', targetUserId: null, before, after });
  await contentChanged(tx);
  return after;
}

/** What names a tier: a tier anything names is kept (the rows would lose what they were for). */
interface TierUses {
  /** Members whose access is this tier's now. */
  holding: number;
  /** Everyone with a payment, a period or a subscription for it, now or before. */
  people: number;
  gifts: number;
  seatFundings: number;
  offers: number;
  posts: number;
}

async function readTierUses(tx: Tx, id: number): Promise<TierUses> {
  const { rows } = await tx.query<TierUses>(
    `SELECT
       (SELECT count(*) FROM "memberships"
         WHERE "tierId" = $1 AND "status" = ANY($2) AND "expiresAt" > now())::int AS holding,
       (SELECT count(*) FROM (SELECT "userId" FROM "memberships" WHERE "tierId" = $1
                              UNION SELECT "userId" FROM "entitlements" WHERE "tierId" = $1
                              UNION SELECT "userId" FROM "subscriptions" WHERE "tierId" = $1) u
       )::int AS people,
       (SELECT count(*) FROM "gifts" WHERE "tierId" = $1)::int AS gifts,
       (SELECT count(*) FROM "seat_fundings" WHERE "tierId" = $1)::int AS "seatFundings",
       (SELECT count(*) FROM "offers" WHERE "tierId" = $1)::int AS offers,
       (SELECT count(*) FROM "posts" WHERE $1 = ANY("tierIds"))::int AS posts`,
    [id, [...ACCESS_STATUSES]],
  );
  const uses = rows[0];
  if (!uses) throw new Error('The tier uses query gave no row');
  return uses;
}

const counted = (count: number, one: string, many: string) =>
  `${count} ${count === 1 ? one : many}`;

/** "3 members hold it, 2 posts name it and 1 gift is for it", or null when nothing names it. */
function describeUses(uses: TierUses): string | null {
  const parts = [
    uses.holding > 0 && `${counted(uses.holding, 'member holds', 'members hold')} it`,
    uses.people > uses.holding &&
      (uses.holding > 0
        ? `${uses.people - uses.holding} more held it before`
        : `${counted(uses.people, 'member', 'members')} held it before`),
    uses.posts > 0 && `${counted(uses.posts, 'post names', 'posts name')} it`,
    uses.gifts > 0 && `${counted(uses.gifts, 'gift is', 'gifts are')} for it`,
    uses.seatFundings > 0 &&
      `${counted(uses.seatFundings, 'seat funding is', 'seat fundings are')} for it`,
    uses.offers > 0 && `${counted(uses.offers, 'offer is', 'offers are')} for it`,
  ].filter((part) => typeof part === 'string');
  if (parts.length === 0) return null;
  return parts.length === 1
    ? (parts[0] ?? null)
    : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;
}

/**
 * Deletes a tier and its plans. Refused (409 `tier_in_use`) while anything names it (a member's
 * periods, membership or subscription, a gift, a seat funding, an offer, a post), for the last
 * tier, and for the first (what every row from before tiers, and every row naming none, is for).
 */
export async function deleteTier(tx: Tx, actor: Actor, slug: string): Promise<void> {
  const tiers = await lockTiers(tx);
  const tier = tierNamed(tiers, slug);
  const refuse = (why: string) =>
    new DomainError(409, 'tier_in_use', `${tier.name} cannot be deleted: ${why}.`);
  if (tiers.length === 1) throw refuse('a site sells at least one tier (rename it instead)');
  if (tier.id === FIRST_TIER_ID) {
    throw refuse(
      'it is the first tier, which every payment from before tiers and every one naming no tier is for (rename or hide it instead)',
    );
  }
  const uses = describeUses(await readTierUses(tx, tier.id));
  if (uses) throw refuse(`${uses} (hide it instead: it is then not offered)`);
  const before = await auditedTier(tx, tier.id);
  await tx.query(`DELETE FROM "tiers" WHERE "id" = $1`, [tier.id]);
  await renumberTiers(
    tx,
    tiers.filter((each) => each.id !== tier.id).map((each) => each.id),
  );
  await writeAudit(tx, actor, { action: 'tier_delete', targetUserId: null, before, after: null });
  await contentChanged(tx);
}
