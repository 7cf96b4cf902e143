import type { Tx } from '../db/transaction.js';
import { grantComp, MAX_COMP_DAYS } from '../memberships/comps.js';
import type { ImportSource, SourceMember } from './source.js';
import type { AccountRow } from './member-accounts.js';

// A comp an import's member had on the old platform (import-members.ts), given here through
// the ledger's comp path.

const DAY_MS = 24 * 60 * 60 * 1000;

export interface MemberContext {
  graceDays: number;
  currency: string;
  source: ImportSource;
  now: Date;
}

const compReasonOf = (source: ImportSource) => `Imported from ${source}`;
const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The file's comp, through the ledger's comp path, until its end (one without an end: as long as
 * a comp may run). A comp that has ended gives nothing; a comp this import already placed (a
 * second run) is not placed again. Answers what was not taken, or null.
 */
export async function writeComp(
  tx: Tx,
  account: AccountRow,
  comp: NonNullable<SourceMember['comp']>,
  context: MemberContext,
): Promise<{ granted: boolean; note: string | null }> {
  const reason = compReasonOf(context.source);
  const already = await tx.query(
    `SELECT 1 FROM entitlements WHERE "userId" = $1 AND source = 'comp' AND "compReason" = $2`,
    [account.id, reason],
  );
  if (already.rowCount) return { granted: false, note: null };
  const longest = new Date(context.now.getTime() + (MAX_COMP_DAYS - 1) * DAY_MS);
  const until = comp.until && comp.until < longest ? comp.until : longest;
  if (until <= context.now) {
    return { granted: false, note: `comp ended on ${day(until)}: no comp` };
  }
  await grantComp(
    tx,
    { userId: account.id, until, reason, grantedBy: null, currency: context.currency },
    { graceDays: context.graceDays, now: context.now },
  );
  return { granted: true, note: null };
}
