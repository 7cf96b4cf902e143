// `npm run bench`: builds the site, then runs every benchmark under tests/bench/ in turn and
// prints their figures. Benchmarks measure; they do not pass or fail on speed.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const run = (command, args) => spawnSync(command, args, { stdio: 'inherit' }).status === 0;

if (!run('npm', ['run', '--silent', 'build'])) process.exit(1);
const only = process.argv[2];
const benches = readdirSync('tests/bench')
  .filter((file) => file.endsWith('.ts') && (!only || file.includes(only)))
  .sort();
let ok = true;
for (const file of benches) {
  console.log(`\n━━ ${file} ━━`);
  ok = run(process.execPath, ['--import', 'tsx', `tests/bench/${file}`]) && ok;
}
process.exit(ok ? 0 : 1);
