import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '#test/run-command';
import { createMigratedTestDatabase, type TestDatabase } from '#test/test-database';
import { main } from './perks.js';

/** `npm run perks:import` and `npm run perks:report`, through the `main` scripts/cli.mjs runs. */
describe('the perks commands', () => {
  let database: TestDatabase;
  let folder: string;

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    folder = await mkdtemp(join(tmpdir(), 'cohort-codes-'));
  });
  afterAll(async () => {
    await database?.drop();
    await rm(folder, { recursive: true, force: true });
  });

  const run = (...args: string[]) => runCommand(main, args, { DATABASE_URL: database.url });

  it('imports a file of codes once, names the bad lines of another, and reports', async (context) => {
    if (database.embedded) context.skip('the embedded test database serves one backend');
    const good = join(folder, 'codes.csv');
    await writeFile(good, 'code\nHB-1\nHB-2\nHB-3\n');
    expect(await run('import', 'harvest-box', good)).toMatchObject({
      code: 0,
      stdout: `harvest-box: 3 codes added, 0 already there (3 in ${good}).\n`,
    });
    expect((await run('import', 'harvest-box', good)).stdout).toBe(
      `harvest-box: 0 codes added, 3 already there (3 in ${good}).\n`,
    );

    const bad = join(folder, 'bad.csv');
    await writeFile(bad, 'HB-4\n\nHB-4\nHB-5;x\n');
    const refused = await run('import', 'harvest-box', bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `${bad}: nothing imported.\nline 2: is blank\nline 3: repeats the code on line 1\nline 4: holds more than one column\n`,
    );
    const shared = await run('import', 'green-bowl-kitchen', good);
    expect(shared.code).toBe(1);
    expect(shared.stderr).toMatch(/^green-bowl-kitchen is redeemed with one shared code/);

    const report = await run('report');
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/^harvest-box\s+0\s+3$/m);
    expect(report.stdout).toMatch(/^green-bowl-kitchen\s+0\s+shared$/m);
  });
});
