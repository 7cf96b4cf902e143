import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const checker = new URL('./require-node.mjs', import.meta.url).href;
const { engines } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { engines: { node: string } };
const floor = engines.node.replace(/^>=\s*/, '');
const [major = 0, minor = 0] = floor.split('.').map(Number);

/** Loads scripts/require-node.mjs, then says "started", in a Node process that says it is `version`. */
function startOn(version: string) {
  const script =
    `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} });` +
    `await import(${JSON.stringify(checker)}); console.log('started');`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
}

describe('the Node version npm start and npm run dev ask for', () => {
  it('stops an older Node with one line naming the version package.json asks for', () => {
    for (const version of ['20.20.2', `${major}.${minor - 1}.99`]) {
      const result = startOn(version);
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `Cohort needs Node.js ${floor} or newer, and this is Node.js ${version}: ` +
          'see docs/development.md#node-versions.\n',
      );
    }
  });

  it('lets the floor and every newer Node start', () => {
    for (const version of [`${major}.${minor}.0`, `${major}.${minor + 10}.1`, `${major + 2}.0.0`]) {
      expect(startOn(version)).toMatchObject({ status: 0, stdout: 'started\n', stderr: '' });
    }
  });

  it('is the first thing scripts/start.mjs and scripts/dev.mjs import', () => {
    for (const script of ['start.mjs', 'dev.mjs']) {
      const source = readFileSync(new URL(`./${script}`, import.meta.url), 'utf8');
      expect(source.match(/^import .*$/m)?.[0]).toBe("import './require-node.mjs';");
    }
  });
});
