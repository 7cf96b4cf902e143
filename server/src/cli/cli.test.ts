import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { projectRoot } from '../paths.js';

/**
 * The other tests call each command's `main` in their own process; this one runs
 * scripts/cli.mjs as `npm run perks:report` does, a process of its own, to prove the wiring:
 * the command found by its name, its output on the process's streams, its exit status.
 */
describe('scripts/cli.mjs', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function runProcess(...args: string[]) {
    return promisify(execFile)(process.execPath, [join(projectRoot, 'scripts/cli.mjs'), ...args], {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: error.stdout,
        stderr: error.stderr,
      }),
    );
  }

  it('runs a command as a process: its output, and its exit status as the process’s', async (context) => {
    if (database.embedded) context.skip('the embedded test database serves one backend');
    const report = await runProcess('perks', 'report');
    expect(report, report.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(report.stdout).toMatch(/^perk\s+claimed\s+left$/m);
    expect(report.stdout).toMatch(/^green-bowl-kitchen\s+0\s+shared$/m);

    const wrong = await runProcess('perks', 'frobnicate');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^usage:\n\s+perks import <perk-id> <codes\.csv>/);
    expect(wrong.stdout).toBe('');

    const unknown = await runProcess('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^usage: node scripts\/cli\.mjs <stripe\|perks\|/);
  }, 60_000);
});
