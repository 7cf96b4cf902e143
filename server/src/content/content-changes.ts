import { AsyncLocalStorage } from 'node:async_hooks';
import type { Tx } from '../db/transaction.js';
import { writeAudit, type AuditAction } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';

/**
 * The changes announced while one piece of work runs (a request's handler): the highest
 * generation of them, null while there is none. What a request announced is what its answer waits
 * for (plugins/app/content-waits.ts).
 */
export interface AnnouncedChanges {
  highest: number | null;
}

const announcing = new AsyncLocalStorage<AnnouncedChanges>();

/** Runs `work`, noting in `changes` each content change `contentChanged` announces within it. */
export function collectContentChanges<T>(changes: AnnouncedChanges, work: () => T): T {
  return announcing.run(changes, work);
}

/**
 * Runs `work` apart from the request that starts it: what it announces is its own (an import run
 * in the background), not the request's, whose answer does not wait for it.
 */
export function apartFromRequest<T>(work: () => T): T {
  return announcing.exit(work);
}

/** The channel every app server listens on; a notice's payload is the new content generation. */
export const CONTENT_CHANNEL = 'cohort_content';

/**
 * Says that what the site shows changed: bumps the content generation and notifies every app
 * server of it, both inside the write's own transaction, so a change that rolls back is neither
 * counted nor told, and a server that reads the generation never sees it ahead of the rows.
 * Every write to posts, topics or anything else the site is drawn from calls it
 * (docs/decisions/0021-content-generation.md).
 * Answers the new generation, and notes it for the request it runs in: that request's answer
 * waits until this server draws it.
 */
export async function contentChanged(tx: Tx): Promise<number> {
  // The row stays locked until the commit, so changes take their generations in commit order.
  const { rows } = await tx.query<{ generation: string }>(
    `INSERT INTO "content_generation" ("id", "generation") VALUES (1, 1)
      ON CONFLICT ("id") DO UPDATE SET "generation" = "content_generation"."generation" + 1
      RETURNING "generation"::text AS generation`,
  );
  const generation = rows[0]?.generation ?? '0';
  await tx.query(`SELECT pg_notify($1, $2)`, [CONTENT_CHANNEL, generation]);
  const changes = announcing.getStore();
  if (changes) changes.highest = Math.max(changes.highest ?? 0, Number(generation));
  return Number(generation);
}

/**
 * A change staff made to what the site shows (a section, a link), in its transaction: written to
 * the audit log, what it was and what it is, and announced (`contentChanged`). Answers the new
 * generation.
 */
export async function auditContentChange(
  tx: Tx,
  actor: Pick<Staff, 'userId' | 'email'>,
  change: { action: AuditAction; before: unknown; after: unknown },
): Promise<number> {
  await writeAudit(tx, actor, { ...change, targetUserId: null });
  return contentChanged(tx);
}

/** The content generation now: 0 on a site whose content never changed since it was made. */
export async function readContentGeneration(db: Tx): Promise<number> {
  const { rows } = await db.query<{ generation: string }>(
    `SELECT coalesce((SELECT "generation" FROM "content_generation" WHERE "id" = 1), 0)::text
        AS generation`,
  );
  return Number(rows[0]?.generation ?? 0);
}
