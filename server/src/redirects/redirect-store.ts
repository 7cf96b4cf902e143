import type pg from 'pg';
import type { RedirectFormat, RedirectRule, Redirects } from '../../../contract/redirects-api.js';
import { contentChanged } from '../content/content-changes.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';
import {
  parseRedirectsFile,
  probeRedirects,
  writeRedirectsFile,
  type Parsed,
} from './redirect-rules.js';

/**
 * The publisher's redirects: one row of `custom_redirects` holding the file as it was given (JSON
 * or YAML, Ghost's shapes), read again into rules wherever they are needed. A change is checked
 * whole before anything is written (every rule compiles on the safe engine, every target stays on
 * the site or is an absolute address, the whole set is timed), then written, audited and announced
 * as a content change in one transaction, so every app server takes it within a second
 * (plugins/app/redirects-plugin.ts).
 */

type Db = Pick<pg.Pool, 'query'>;

interface Row {
  format: RedirectFormat;
  file: string;
  updatedAt: Date;
}

async function readRow(db: Db | Tx, lock = false): Promise<Row | null> {
  const { rows } = await db.query<Row>(
    `SELECT "format", "file", "updatedAt" FROM "custom_redirects" WHERE "id" = 1${lock ? ' FOR UPDATE' : ''}`,
  );
  return rows[0] ?? null;
}

const rulesOf = (row: Row | null): RedirectRule[] => {
  if (!row) return [];
  const parsed = parseRedirectsFile(row.format, row.file, { check: false });
  return parsed.ok ? parsed.rules : [];
};

/** The redirects as the desk shows them: the file as given, and its rules in order. */
export async function readRedirects(db: Db): Promise<Redirects> {
  const row = await readRow(db);
  return {
    format: row?.format ?? null,
    file: row?.file ?? '',
    redirects: rulesOf(row),
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/** The stored rules and when they were last changed: what each app server keeps in memory. */
export async function readStoredRules(
  db: Db,
): Promise<{ rules: RedirectRule[]; updatedAt: number }> {
  const row = await readRow(db);
  return { rules: rulesOf(row), updatedAt: row?.updatedAt.getTime() ?? 0 };
}

/**
 * The file read and held to every rule, or the 400 that lists what is wrong: a change that is
 * refused changes nothing.
 */
export function requireValidRedirects(format: RedirectFormat, file: string): RedirectRule[] {
  const parsed: Parsed = parseRedirectsFile(format, file);
  if (!parsed.ok) {
    throw new DomainError(
      400,
      'invalid_redirects',
      `The redirects were not saved: ${parsed.problems.join('; ')}.`,
      { problems: parsed.problems },
    );
  }
  const slow = probeRedirects(parsed.compiled);
  if (slow) {
    throw new DomainError(400, 'invalid_redirects', `The redirects were not saved: ${slow}.`, {
      problems: [slow],
    });
  }
  return parsed.rules;
}

async function writeRow(tx: Tx, format: RedirectFormat, file: string): Promise<void> {
  await tx.query(
    `INSERT INTO "custom_redirects" ("id", "format", "file", "updatedAt") VALUES (1, $1, $2, now())
      ON CONFLICT ("id") DO UPDATE SET "format" = $1, "file" = $2, "updatedAt" = now()`,
    [format, file],
  );
}

/** Replaces the redirects with this file's, audited with the rules before and after. */
export async function saveRedirects(
  pool: pg.Pool,
  actor: Pick<Staff, 'userId' | 'email'>,
  change: { format: RedirectFormat; file: string },
): Promise<Redirects> {
  const rules = requireValidRedirects(change.format, change.file);
  await withTransaction(pool, async (tx) => {
    const before = await readRow(tx, true);
    await writeRow(tx, change.format, change.file);
    await writeAudit(tx, actor, {
      action: 'redirects_change',
      targetUserId: null,
      before: { format: before?.format ?? null, redirects: rulesOf(before) },
      after: { format: change.format, redirects: rules },
    });
    await contentChanged(tx);
  });
  return readRedirects(pool);
}

/** What an import's redirects came to, for its report. */
export interface ImportedRedirects {
  added: number;
  /** Already there (the same `from`): an import run twice adds nothing the second time. */
  present: number;
}

/**
 * Adds an import's redirects after the site's own, leaving out those whose `from` the site has
 * already (its own rule wins); the file is then written back in the site's format (the import's
 * if the site had none). `rules` were checked by requireValidRedirects. Audited when someone
 * ran the import from the desk (`actor`); with `dryRun`, only counted.
 */
export async function addImportedRedirects(
  pool: pg.Pool,
  imported: { format: RedirectFormat; file: string; rules: RedirectRule[] },
  options: { dryRun: boolean; actor?: Pick<Staff, 'userId' | 'email'> },
): Promise<ImportedRedirects> {
  return withTransaction(pool, async (tx) => {
    const before = await readRow(tx, !options.dryRun);
    const kept = rulesOf(before);
    const known = new Set(kept.map((rule) => rule.from));
    const added = imported.rules.filter((rule) => {
      if (known.has(rule.from)) return false;
      known.add(rule.from);
      return true;
    });
    const counts = { added: added.length, present: imported.rules.length - added.length };
    if (options.dryRun || added.length === 0) return counts;
    const rules = [...kept, ...added];
    const format = before?.format ?? imported.format;
    // A site without redirects keeps the file as the export had it, comments and all.
    const file = before ? writeRedirectsFile(format, rules) : imported.file;
    // Together they are held to what one upload is.
    requireValidRedirects(format, file);
    await writeRow(tx, format, file);
    if (options.actor) {
      await writeAudit(tx, options.actor, {
        action: 'redirects_change',
        targetUserId: null,
        before: { format: before?.format ?? null, redirects: kept },
        after: { format, redirects: rules, imported: true },
      });
    }
    await contentChanged(tx);
    return counts;
  });
}
