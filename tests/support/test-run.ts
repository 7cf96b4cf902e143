import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { redact, startDatabaseServer } from './database-server.js';

/**
 * What a test run leaves on the machine is stamped with its owner: this machine (a short tag of
 * its host name) and the process id of the run's main process (Vitest's or Playwright's, which
 * lives from the global setup to the teardown), with the time it was made. Test databases are
 * named `cohort_test_<host>_<pid>_<time>_<random>`; the folders a run's tests make land in its
 * run folder, `<tmp>/cohort-test-run-<host>_<pid>_<time>-<random>`, which is the TMPDIR of its
 * workers and of what they start.
 *
 * A run begins by removing what runs that ended left (a crashed run, a killed one): a thing of
 * this machine whose process is gone, or one of another machine (sharing the PostgreSQL server)
 * older than two days. A run beside it on the same machine is alive, so its things stay. A run
 * ends by dropping its own databases and its folder, and fails if it could not.
 */

/** The environment variable that gives a run's workers its owner: `<host>_<pid>`. */
const RUN_VARIABLE = 'COHORT_TEST_RUN';
const DATABASE_PREFIX = 'cohort_test_';
const FOLDER_PREFIX = 'cohort-test-run-';
/** Older than this, a thing of another machine is left over (its process cannot be asked). */
const OTHER_MACHINE_AGE_MS = 2 * 24 * 60 * 60 * 1000;

interface Stamp {
  host: string;
  pid: number;
  madeAt: number;
}

const STAMPED_DATABASE = /^cohort_test_([0-9a-f]{6})_(\d+)_([0-9a-z]+)_[0-9a-f]+$/;
const STAMPED_FOLDER = /^cohort-test-run-([0-9a-f]{6})_(\d+)_([0-9a-z]+)-/;
/** Names from before databases were stamped: only their being in use says they are alive. */
const UNSTAMPED_DATABASE = /^cohort_test_[0-9a-f]{12}$/;
/** Upload folders made outside a run's folder, by the process whose id they carry. */
const PROCESS_UPLOADS_FOLDER = /^cohort-test-uploads-(\d+)$/;

const thisHost = createHash('sha256').update(hostname()).digest('hex').slice(0, 6);

/** The owner a stamp names: a process of this machine unless `host` says another. */
export const ownerOf = (pid: number, host = thisHost) => `${host}_${pid}`;

const thisProcess = ownerOf(process.pid);

/** The owner of what this process makes: its run's, or its own outside a run. */
const runOwner = () => process.env[RUN_VARIABLE] ?? thisProcess;

const stampOf = (owner: string, madeAt: number) =>
  `${owner}_${Math.floor(madeAt / 1000).toString(36)}`;

/** A name for a new test database of this run (or of `owner`, made at `madeAt`). */
export function testDatabaseName(owner = runOwner(), madeAt = Date.now()): string {
  return `${DATABASE_PREFIX}${stampOf(owner, madeAt)}_${randomBytes(4).toString('hex')}`;
}

/** The start of the name of a run's folder (mkdtemp adds the rest). */
export const runFolderPrefix = (owner: string, madeAt = Date.now()) =>
  `${FOLDER_PREFIX}${stampOf(owner, madeAt)}-`;

function readStamp(name: string, pattern: RegExp): Stamp | undefined {
  const match = pattern.exec(name);
  if (!match) return undefined;
  const [, host = '', pid = '', madeAt = ''] = match;
  return { host, pid: Number(pid), madeAt: parseInt(madeAt, 36) * 1000 };
}

/** Whether the process `pid` of this machine is gone (another user's still answers EPERM). */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function isLeftOver(stamp: Stamp): boolean {
  return stamp.host === thisHost
    ? isGone(stamp.pid)
    : Date.now() - stamp.madeAt > OTHER_MACHINE_AGE_MS;
}

/**
 * Drops the test databases and removes the test folders (in `tmpRoot`) that ended runs left, and
 * answers their names. Templates (`cohort_template_<digest>`) stay for the next run.
 */
export async function removeLeftovers(options: {
  serverUrl: string | undefined;
  tmpRoot: string;
}): Promise<string[]> {
  const removed: string[] = [];
  if (options.serverUrl) {
    await withServer(options.serverUrl, async (client) => {
      for (const name of await testDatabaseNames(client)) {
        const stamp = readStamp(name, STAMPED_DATABASE);
        if (stamp && isLeftOver(stamp)) {
          await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
          removed.push(name);
        } else if (!stamp && UNSTAMPED_DATABASE.test(name)) {
          // Without FORCE: refused while a run of an older checkout is connected to it.
          const dropped = await client.query(`DROP DATABASE IF EXISTS "${name}"`).then(
            () => true,
            (error: { code?: string }) => {
              if (error.code === '55006') return false; // object_in_use
              throw error;
            },
          );
          if (dropped) removed.push(name);
        }
      }
    });
  }
  for (const name of await readdir(options.tmpRoot)) {
    const stamp = readStamp(name, STAMPED_FOLDER);
    const uploadsOf = PROCESS_UPLOADS_FOLDER.exec(name)?.[1];
    if ((stamp && isLeftOver(stamp)) || (uploadsOf && isGone(Number(uploadsOf)))) {
      await rm(join(options.tmpRoot, name), { recursive: true, force: true });
      removed.push(name);
    }
  }
  return removed;
}

async function testDatabaseNames(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
    [DATABASE_PREFIX],
  );
  return rows.map((row) => row.datname);
}

/**
 * The global setup of Vitest and of Playwright: finds the PostgreSQL server of the run
 * (database-server.ts), publishes its URL to the workers through the environment and begins the
 * run. Answers the teardown.
 */
export async function setUpTestRun(): Promise<() => Promise<void>> {
  const server = await startDatabaseServer();
  if (server.url) process.env.TEST_DATABASE_URL = server.url;
  console.log(`[tests] PostgreSQL: ${server.kind}${server.url ? ` (${redact(server.url)})` : ''}`);
  const endRun = await beginTestRun(server.url);
  return async () => {
    try {
      await endRun();
    } finally {
      await server.stop();
    }
  };
}

/**
 * Begins a test run on the PostgreSQL server at `serverUrl` (none: embedded databases): removes
 * what ended runs left, stamps what this run makes, and gives it a folder for its temporary files.
 * Answers the run's end, which removes what the run made and throws if something stays. Vitest
 * calls the global setup once for each of its projects, in one process: the later calls join the
 * run the first began.
 */
export async function beginTestRun(serverUrl: string | undefined): Promise<() => Promise<void>> {
  if (process.env[RUN_VARIABLE] === thisProcess) return async () => {};
  const tmpRoot = tmpdir();
  const removed = await removeLeftovers({ serverUrl, tmpRoot });
  if (removed.length > 0) {
    console.log(`[tests] removed what ended runs left: ${removed.join(', ')}`);
  }
  const folder = await mkdtemp(join(tmpRoot, runFolderPrefix(thisProcess)));
  // Servers a test starts as another user (PostgreSQL, PgBouncer, nginx) reach their folders in it.
  await chmod(folder, 0o755);
  const restore = setEnvironment({
    [RUN_VARIABLE]: thisProcess,
    TMPDIR: folder,
    // Playwright's workers keep compiling the specs into the cache the runner uses, across runs.
    PLAYWRIGHT_TRANSFORM_CACHE_DIR:
      process.env.PLAYWRIGHT_TRANSFORM_CACHE_DIR ??
      join(tmpRoot, `playwright-transform-cache-${process.geteuid?.() ?? ''}`),
  });

  return async () => {
    restore();
    await rm(folder, { recursive: true, force: true });
    if (serverUrl) await dropDatabasesOfThisRun(serverUrl);
  };
}

/** Sets environment variables, and answers how to put back what they were. */
function setEnvironment(values: Record<string, string>): () => void {
  const before = Object.keys(values).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of before) {
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
  };
}

/**
 * Drops the databases this run's tests did not (a file whose hooks timed out, say), saying so,
 * and fails the run if one stays.
 */
async function dropDatabasesOfThisRun(serverUrl: string): Promise<void> {
  const ours = (client: pg.Client) =>
    testDatabaseNames(client).then((names) =>
      names.filter((name) => name.startsWith(`${DATABASE_PREFIX}${thisProcess}_`)),
    );
  await withServer(serverUrl, async (client) => {
    const left = await ours(client);
    if (left.length === 0) return;
    console.log(`[tests] dropping the databases this run's tests left: ${left.join(', ')}`);
    for (const name of left) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const staying = await ours(client);
    if (staying.length > 0) throw new Error(`The test run left databases: ${staying.join(', ')}`);
  });
}

/** A connection to a PostgreSQL server for `work`, closed after it whatever happens. */
export async function withServer<T>(
  url: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
