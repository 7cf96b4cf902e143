import { DomainError } from '../domain-error.js';
import type { Services } from '../services.js';
import type { Redemption } from '../../../contract/perks.js';
import type { CatalogPerk } from './catalog.js';

/** Past this share of a pool's codes claimed, each claim warns the operator to import more. */
export const POOL_WARNING_SHARE = 0.9;

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

/**
 * A member's redemption of a live perk: the shared code or link (and a record that they took it),
 * or one single-use code of the perk's pool, theirs for good. Asking again answers the same;
 * no code goes to two members, however many ask at once.
 */
export async function redeemPerk(
  { db, log }: Pick<Services, 'db' | 'log'>,
  perk: CatalogPerk,
  userId: string,
): Promise<Redemption> {
  const rule = perk.redemption;
  if (!('singleUseCodes' in rule)) {
    await db.pool.query(
      `INSERT INTO perk_claims ("perkId", "userId") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [perk.id, userId],
    );
    return 'code' in rule ? { code: rule.code } : { link: rule.link };
  }

  for (let attempt = 0; attempt < 3; attempt += 1) {
    const mine = await db.pool.query<{ code: string }>(
      `SELECT code FROM perk_codes WHERE "perkId" = $1 AND "claimedBy" = $2`,
      [perk.id, userId],
    );
    if (mine.rows[0]) return { code: mine.rows[0].code };
    try {
      // The next free code, skipping any another member is claiming at this instant. The UPDATE
      // re-checks "claimedAt" IS NULL on the locked row, so a code is never given twice; the
      // unique ("perkId", "claimedBy") index stops one member taking two from parallel requests.
      const claimed = await db.pool.query<{ code: string }>(
        `UPDATE perk_codes SET "claimedBy" = $2, "claimedAt" = now()
         WHERE id = (
           SELECT id FROM perk_codes
           WHERE "perkId" = $1 AND "claimedAt" IS NULL
           ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
         ) AND "claimedAt" IS NULL
         RETURNING code`,
        [perk.id, userId],
      );
      if (claimed.rows[0]) {
        await warnWhenRunningOut({ db, log }, perk.id);
        return { code: claimed.rows[0].code };
      }
    } catch (error) {
      if (isUniqueViolation(error)) continue; // this member's other request won: read its code
      throw error;
    }
    // Nothing free, or only codes other requests hold this instant (they may yet let go).
    const { rows } = await db.pool.query<{ free: number }>(
      `SELECT count(*)::int AS free FROM perk_codes WHERE "perkId" = $1 AND "claimedAt" IS NULL`,
      [perk.id],
    );
    if ((rows[0]?.free ?? 0) === 0) break;
  }
  throw new DomainError(
    409,
    'codes_exhausted',
    'All codes claimed: other members took every code of this offer. Check back later.',
  );
}

async function warnWhenRunningOut({ db, log }: Pick<Services, 'db' | 'log'>, perkId: string) {
  const { rows } = await db.pool.query<{ claimed: number; total: number }>(
    `SELECT count("claimedAt")::int AS claimed, count(*)::int AS total
     FROM perk_codes WHERE "perkId" = $1`,
    [perkId],
  );
  const { claimed = 0, total = 0 } = rows[0] ?? {};
  if (total > 0 && claimed >= total * POOL_WARNING_SHARE) {
    log.warn(
      { perkId, claimed, total },
      `perk ${perkId}: ${claimed} of ${total} single-use codes claimed; import more with npm run perks:import`,
    );
  }
}

/** Per perk: how many members took it, and for pools how many codes are left. */
export interface PerkReportRow {
  perkId: string;
  claimed: number;
  /** Codes left in a single-use pool; null for a shared code or link. */
  left: number | null;
}

export async function perkReport(
  { db }: Pick<Services, 'db'>,
  perks: readonly CatalogPerk[],
): Promise<PerkReportRow[]> {
  const pools = await db.pool.query<{ perkId: string; claimed: number; left: number }>(
    `SELECT "perkId", count("claimedAt")::int AS claimed,
            (count(*) - count("claimedAt"))::int AS left
     FROM perk_codes GROUP BY "perkId"`,
  );
  const shared = await db.pool.query<{ perkId: string; claimed: number }>(
    `SELECT "perkId", count(*)::int AS claimed FROM perk_claims GROUP BY "perkId"`,
  );
  return perks.map((perk) => {
    if ('singleUseCodes' in perk.redemption) {
      const pool = pools.rows.find((row) => row.perkId === perk.id);
      return { perkId: perk.id, claimed: pool?.claimed ?? 0, left: pool?.left ?? 0 };
    }
    const row = shared.rows.find((item) => item.perkId === perk.id);
    return { perkId: perk.id, claimed: row?.claimed ?? 0, left: null };
  });
}
