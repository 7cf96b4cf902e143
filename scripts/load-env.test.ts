import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const loader = new URL('./load-env.mjs', import.meta.url).pathname;

/** What a fresh Node process sees after loading `dir`'s .env, with `env` as its environment. */
function settingsAfterLoading(dir: string, env: Record<string, string>) {
  const script =
    `const { loadDotEnv } = await import(${JSON.stringify(loader)});` +
    `const read = loadDotEnv(${JSON.stringify(dir)});` +
    `console.log(JSON.stringify({ read, staff: process.env.STAFF_EMAILS ?? null, name: process.env.SITE_NAME ?? null }));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return JSON.parse(output) as { read: boolean; staff: string | null; name: string | null };
}

describe('the operator’s .env', () => {
  let withFile: string;
  let withoutFile: string;
  beforeAll(async () => {
    withFile = await mkdtemp(join(tmpdir(), 'cohort-env-'));
    withoutFile = await mkdtemp(join(tmpdir(), 'cohort-env-'));
    await writeFile(
      join(withFile, '.env'),
      '# the desk\nSTAFF_EMAILS=owner@example.org\nSITE_NAME="Tidewater Press"\n',
    );
  });
  afterAll(async () => {
    await rm(withFile, { recursive: true, force: true });
    await rm(withoutFile, { recursive: true, force: true });
  });

  it('is read when present: STAFF_EMAILS there names the desk’s owners', () => {
    expect(settingsAfterLoading(withFile, {})).toEqual({
      read: true,
      staff: 'owner@example.org',
      name: 'Tidewater Press',
    });
  });

  it('gives way to a variable set in the environment', () => {
    expect(settingsAfterLoading(withFile, { SITE_NAME: 'From the environment' })).toEqual({
      read: true,
      staff: 'owner@example.org',
      name: 'From the environment',
    });
  });

  it('is not needed', () => {
    expect(settingsAfterLoading(withoutFile, {})).toEqual({ read: false, staff: null, name: null });
  });
});
