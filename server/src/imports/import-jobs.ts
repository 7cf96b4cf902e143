import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type pg from 'pg';
import { withTransaction, type Tx } from '../db/transaction.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';
import { DomainError } from '../domain-error.js';
import {
  runImport,
  type ImportDeps,
  type ImportProgress,
  type ImportRequest,
} from './run-import.js';
import {
  ImportFileError,
  type ImportCounts,
  type ImportReport,
  type ImportSource,
} from './source.js';

/**
 * The imports started from the desk (the `imports` table): one at a time per site, run in the
 * background in the process that took the upload, their progress written as they go and then
 * their report or their error, each one an entry in the audit log.
 *
 * A running import writes a heartbeat (`progress.at`) at least every HEARTBEAT_MS. One whose
 * heartbeat is older than STALE_AFTER_MS was left by a server that stopped (a crash, a restart, a
 * replica taken away): it is marked failed when an app starts and whenever imports are read or
 * started. The heartbeat, rather than "every running import" at start, is what lets a replica
 * start beside another that is importing without failing that one's import.
 */

export const HEARTBEAT_MS = 10_000;
export const STALE_AFTER_MS = 60_000;
/** Progress is written at most this often (an importer may report every item). */
export const PROGRESS_EVERY_MS = 500;

export const INTERRUPTED_MESSAGE =
  'The server stopped during the import; run it again: an import is safe to run twice.';

export type ImportJobStatus = 'queued' | 'running' | 'done' | 'failed';

/** Where a running import is, with when it last said so (the heartbeat). */
export type StoredProgress = Partial<ImportProgress> & { at?: string };

export interface ImportJob {
  id: string;
  status: ImportJobStatus;
  progress: StoredProgress;
  report: ImportReport | null;
  error: string | null;
  source: string;
  section: string | null;
  fileName: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

const COLUMNS = `id, status, progress, report, error, source, section, "fileName", "createdAt", "finishedAt"`;

/** The heartbeat's age test, in SQL: no heartbeat at all counts from the row's creation. */
const STALE_SQL = `status IN ('queued', 'running')
  AND COALESCE((progress->>'at')::timestamptz, "createdAt") < $1::timestamptz`;

/** Marks failed the imports whose server stopped; answers how many. */
export async function failStaleImports(
  db: Pick<pg.Pool, 'query'> | Tx,
  now = new Date(),
): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE imports SET status = 'failed', error = $2, "finishedAt" = $3
     WHERE ${STALE_SQL}`,
    [new Date(now.getTime() - STALE_AFTER_MS), INTERRUPTED_MESSAGE, now],
  );
  return rowCount ?? 0;
}

/** The import running now, if one is (after the stale ones are marked failed). */
export async function findRunningImport(pool: pg.Pool): Promise<ImportJob | null> {
  await failStaleImports(pool);
  const { rows } = await pool.query<ImportJob>(
    `SELECT ${COLUMNS} FROM imports WHERE status IN ('queued', 'running')
     ORDER BY "createdAt" LIMIT 1`,
  );
  return rows[0] ?? null;
}

export const alreadyRunning = (job: Pick<ImportJob, 'createdAt' | 'fileName'>) =>
  new DomainError(
    409,
    'import_running',
    `An import is already running (${job.fileName ?? 'a file'}, started ${job.createdAt.toISOString()}): wait for it to finish, then start the next one.`,
  );

/**
 * Records a new running import, or refuses with 409 while another runs. The table is locked for
 * the check and the insert, so two owners uploading at once cannot both start one.
 */
export async function startImportJob(
  pool: pg.Pool,
  job: { source: ImportSource; section: string | null; fileName: string | null; staff: Staff },
): Promise<string> {
  return withTransaction(pool, async (tx) => {
    await tx.query('LOCK TABLE imports IN SHARE ROW EXCLUSIVE MODE');
    await failStaleImports(tx);
    const { rows } = await tx.query<ImportJob>(
      `SELECT ${COLUMNS} FROM imports WHERE status IN ('queued', 'running') LIMIT 1`,
    );
    const [running] = rows;
    if (running) throw alreadyRunning(running);
    const id = randomUUID();
    const progress: StoredProgress = {
      phase: 'starting',
      done: 0,
      total: 0,
      at: new Date().toISOString(),
    };
    await tx.query(
      `INSERT INTO imports (id, source, section, "fileName", status, progress, "createdBy")
       VALUES ($1, $2, $3, $4, 'running', $5::jsonb, $6)`,
      [id, job.source, job.section, job.fileName, JSON.stringify(progress), job.staff.userId],
    );
    return id;
  });
}

export async function readImportJob(pool: pg.Pool, id: string): Promise<ImportJob | null> {
  await failStaleImports(pool);
  const { rows } = await pool.query<ImportJob>(`SELECT ${COLUMNS} FROM imports WHERE id = $1`, [
    id,
  ]);
  return rows[0] ?? null;
}

/** The last imports, newest first. */
export async function listImportJobs(pool: pg.Pool, limit = 20): Promise<ImportJob[]> {
  await failStaleImports(pool);
  const { rows } = await pool.query<ImportJob>(
    `SELECT ${COLUMNS} FROM imports ORDER BY "createdAt" DESC, id DESC LIMIT $1`,
    [limit],
  );
  return rows;
}

async function writeProgress(pool: pg.Pool, id: string, progress: StoredProgress): Promise<void> {
  await pool.query(`UPDATE imports SET progress = $2::jsonb WHERE id = $1 AND status = 'running'`, [
    id,
    JSON.stringify(progress),
  ]);
}

/** The report's counts, for the audit log (the lists of skipped items stay in the report). */
function countsOf(report: ImportReport) {
  const counts = (each: ImportCounts) => ({
    created: each.created,
    updated: each.updated,
    unchanged: each.unchanged,
    skipped: each.skipped.length,
  });
  return {
    source: report.source,
    dryRun: report.dryRun,
    posts: counts(report.posts),
    pages: counts(report.pages),
    members: counts(report.members),
    drafts: report.drafts,
    scheduled: report.scheduled,
    topics: report.topics,
    redirects: report.redirects,
    images: { stored: report.images.stored, notFetched: report.images.notFetched.length },
    unmappedPrices: report.unmappedPrices.length,
  };
}

/** Ends an import, done with its report or failed with why, and its audit entry with it. */
async function finishImportJob(
  pool: pg.Pool,
  id: string,
  staff: Pick<Staff, 'userId' | 'email'>,
  outcome: { report: ImportReport } | { error: string },
): Promise<void> {
  await withTransaction(pool, async (tx) => {
    const done = 'report' in outcome;
    const { rows } = await tx.query<{ source: string; fileName: string | null }>(
      `UPDATE imports
       SET status = $2, report = $3::jsonb, error = $4, "finishedAt" = now(),
           progress = progress || jsonb_build_object('at', now())
       WHERE id = $1 AND status = 'running'
       RETURNING source, "fileName"`,
      [
        id,
        done ? 'done' : 'failed',
        done ? JSON.stringify(outcome.report) : null,
        done ? null : outcome.error,
      ],
    );
    const [row] = rows;
    // Marked failed meanwhile (its server was closing): that stands, and was said.
    if (!row) return;
    await writeAudit(tx, staff, {
      action: 'import',
      targetUserId: null,
      before: null,
      after: done
        ? { import: id, fileName: row.fileName, ...countsOf(outcome.report) }
        : { import: id, source: row.source, fileName: row.fileName, error: outcome.error },
    });
  });
}

/** Marks failed, with INTERRUPTED_MESSAGE, the imports this server runs (it is closing). */
export async function failInterruptedImports(pool: pg.Pool, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await pool.query(
    `UPDATE imports SET status = 'failed', error = $2, "finishedAt" = now()
     WHERE id = ANY($1::uuid[]) AND status = 'running'`,
    [ids, INTERRUPTED_MESSAGE],
  );
}

/**
 * Progress as an importer reports it, written at most every PROGRESS_EVERY_MS (the latest wins),
 * and a heartbeat at least every HEARTBEAT_MS while nothing is reported.
 */
export class ProgressWriter {
  private latest: ImportProgress = { phase: 'starting', done: 0, total: 0 };
  private lastWrite = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly heartbeat: NodeJS.Timeout;
  /**
   * The write, in the context the writer was made in: an importer reports from inside its own
   * transactions, and the progress is no part of them (on the embedded database's one connection,
   * a write asked for from inside one would wait for it, and tests' pools refuse it).
   */
  private readonly send = AsyncResource.bind((progress: StoredProgress) =>
    writeProgress(this.pool, this.id, progress),
  );

  constructor(
    private readonly pool: pg.Pool,
    private readonly id: string,
    private readonly log: (error: unknown) => void,
  ) {
    this.heartbeat = setInterval(() => this.write(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  report(progress: ImportProgress): void {
    if (this.stopped) return;
    this.latest = progress;
    if (this.timer) return;
    const wait = this.lastWrite + PROGRESS_EVERY_MS - Date.now();
    if (wait <= 0) this.write();
    else {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.write();
      }, wait);
      this.timer.unref();
    }
  }

  private write(): void {
    this.lastWrite = Date.now();
    const progress: StoredProgress = { ...this.latest, at: new Date().toISOString() };
    this.writing = this.writing.then(() => this.send(progress)).catch(this.log);
  }

  /** Stops writing, after the latest progress if it was still waiting its turn; answers once it has gone. */
  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.write();
    }
    this.stopped = true;
    await this.writing;
  }
}

/**
 * Words for whatever an import threw: the reader's and the domain's own, else a general one. The
 * upload's folder on the server is no business of the desk's: the file is named by its name.
 */
function messageOf(error: unknown, upload: { folder: string; path: string }): string {
  if (error instanceof DomainError || error instanceof ImportFileError) {
    return error.message
      .split(upload.path)
      .join(basename(upload.path))
      .split(upload.folder)
      .join('the upload');
  }
  return 'The import stopped on an error the server logged: nothing more was written. Run it again, or ask the operator to look at the log.';
}

/**
 * Runs a recorded import to its end in the background: never rejects. The uploaded file's folder
 * is deleted when it is over, whatever happened.
 */
export async function runImportJob(
  deps: ImportDeps,
  job: {
    id: string;
    request: ImportRequest;
    staff: Pick<Staff, 'userId' | 'email'>;
    /** The folder the upload was written to: removed at the end. */
    folder: string;
    logError: (error: unknown, message: string) => void;
  },
): Promise<void> {
  const progress = new ProgressWriter(deps.pool, job.id, (error) =>
    job.logError(error, 'could not write an import’s progress'),
  );
  try {
    let outcome: { report: ImportReport } | { error: string };
    try {
      outcome = {
        report: await runImport(job.request, { ...deps, actor: job.staff }, (each) =>
          progress.report(each),
        ),
      };
    } catch (error) {
      if (!(error instanceof DomainError || error instanceof ImportFileError)) {
        job.logError(error, 'an import failed');
      }
      outcome = { error: messageOf(error, { folder: job.folder, path: job.request.path }) };
    }
    await progress.stop();
    // The upload goes before the import is marked over: whoever reads "done" or "failed" finds
    // nothing of it left on disk.
    await removeUpload(job);
    await finishImportJob(deps.pool, job.id, job.staff, outcome);
  } catch (error) {
    job.logError(error, 'could not record the end of an import');
  } finally {
    await progress.stop();
    await removeUpload(job);
  }
}

async function removeUpload(job: {
  folder: string;
  logError: (error: unknown, message: string) => void;
}): Promise<void> {
  await rm(job.folder, { recursive: true, force: true }).catch((error: unknown) =>
    job.logError(error, 'could not delete an import’s uploaded file'),
  );
}
