// The Node.js Cohort needs, read from package.json's `engines` (the one place it is written).
// `npm start` and `npm run dev` import this module first: on an older Node they stop with one line
// saying which version to install, instead of failing later inside a dependency.
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const floor = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(engines.node.trim())?.[1];
if (!floor) {
  throw new Error(`scripts/require-node.mjs reads engines.node as ">=x.y", not "${engines.node}"`);
}

const running = process.versions.node.split('.').map(Number);
const [firstDifference = 0] = floor
  .split('.')
  .map((part, i) => running[i] - Number(part))
  .filter((difference) => difference !== 0);
if (firstDifference < 0) {
  console.error(
    `Cohort needs Node.js ${floor} or newer, and this is Node.js ${process.versions.node}: ` +
      'see docs/development.md#node-versions.',
  );
  process.exit(1);
}
