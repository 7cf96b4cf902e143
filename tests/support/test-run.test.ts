import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from './test-database.js';
import {
  beginTestRun,
  ownerOf,
  removeLeftovers,
  runFolderPrefix,
  testDatabaseName,
} from './test-run.js';
import { useTempFolder } from './temp-folder.js';

// What a test run leaves (test-run.ts): a run begins by removing what ended runs left, never what
// a live run beside it uses, and ends with nothing of its own left.

const serverUrl = process.env.TEST_DATABASE_URL;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A host tag that is not this machine's. */
const OTHER_HOST = ownerOf(1).startsWith('aaaaaa') ? 'bbbbbb' : 'aaaaaa';

/** The id of a process that has ended. */
async function endedProcessId(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  if (!child.pid) throw new Error('the process did not start');
  return child.pid;
}

async function withServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const databasesNamed = (names: string[]) =>
  withServer(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname = ANY($1) ORDER BY datname',
      [names],
    );
    return rows.map((row) => row.datname);
  });

describe('the leftovers of test runs', () => {
  const root = useTempFolder('cohort-leftovers-');

  it('removes the folders of runs whose process is gone, and keeps a live run’s', async () => {
    const ended = await endedProcessId();
    const endedRun = await mkdtemp(join(root.path, runFolderPrefix(ownerOf(ended))));
    await writeFile(join(endedRun, 'image.webp'), 'bytes');
    const liveRun = await mkdtemp(join(root.path, runFolderPrefix(ownerOf(process.pid))));
    const oldRunElsewhere = await mkdtemp(
      join(root.path, runFolderPrefix(ownerOf(ended, OTHER_HOST), Date.now() - 3 * DAY_MS)),
    );
    const newRunElsewhere = await mkdtemp(
      join(root.path, runFolderPrefix(ownerOf(ended, OTHER_HOST))),
    );
    const endedUploads = join(root.path, `cohort-test-uploads-${ended}`);
    const liveUploads = join(root.path, `cohort-test-uploads-${process.pid}`);
    const unrelated = join(root.path, 'cohort-site-abc123');
    for (const folder of [endedUploads, liveUploads, unrelated]) await mkdir(folder);

    const removed = await removeLeftovers({ serverUrl: undefined, tmpRoot: root.path });

    expect(removed.sort()).toEqual(
      [endedRun, oldRunElsewhere, endedUploads].map((folder) => basename(folder)).sort(),
    );
    for (const folder of [endedRun, oldRunElsewhere, endedUploads]) {
      expect(existsSync(folder), folder).toBe(false);
    }
    for (const folder of [liveRun, newRunElsewhere, liveUploads, unrelated]) {
      expect(existsSync(folder), folder).toBe(true);
    }
  });

  it.skipIf(!serverUrl)(
    'drops the databases of runs whose process is gone, and keeps a live run’s',
    async () => {
      const ended = await endedProcessId();
      const endedRun = testDatabaseName(ownerOf(ended));
      const liveRun = testDatabaseName(ownerOf(process.pid));
      const oldRunElsewhere = testDatabaseName(ownerOf(ended, OTHER_HOST), Date.now() - 3 * DAY_MS);
      const newRunElsewhere = testDatabaseName(ownerOf(ended, OTHER_HOST));
      const names = [endedRun, liveRun, oldRunElsewhere, newRunElsewhere];
      await withServer(async (client) => {
        for (const name of names) await client.query(`CREATE DATABASE "${name}"`);
      });
      try {
        const removed = await removeLeftovers({ serverUrl, tmpRoot: root.path });

        expect(removed).toEqual(expect.arrayContaining([endedRun, oldRunElsewhere]));
        expect(removed).not.toContain(liveRun);
        expect(await databasesNamed(names)).toEqual([liveRun, newRunElsewhere].sort());
      } finally {
        await withServer(async (client) => {
          for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name}"`);
        });
      }
    },
  );

  it('ends a run with none of its databases or files left, and its environment put back', async () => {
    const environment = { ...process.env };
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const end = await beginTestRun(serverUrl);
    let endedRun = false;
    try {
      const folder = tmpdir();
      expect(basename(folder).startsWith(`cohort-test-run-${ownerOf(process.pid)}_`)).toBe(true);
      expect(process.env.TMPDIR).toBe(folder);
      // Vitest begins the run once for each of its projects: the later calls join it.
      await (
        await beginTestRun(serverUrl)
      )();
      expect(tmpdir()).toBe(folder);

      await writeFile(join(folder, 'left.txt'), 'by a test');
      const database = await createTestDatabase();
      const name = new URL(database.url).pathname.slice(1);
      if (serverUrl) expect(await databasesNamed([name])).toEqual([name]);

      endedRun = true;
      await end();

      expect(existsSync(folder)).toBe(false);
      if (serverUrl) expect(await databasesNamed([name])).toEqual([]);
      else await database.drop();
      expect(process.env).toEqual(environment);
    } finally {
      if (!endedRun) await end();
      vi.mocked(console.log).mockRestore();
    }
  });
});
