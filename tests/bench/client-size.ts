// The JavaScript the home page loads before it is interactive: the entry script and the modules
// it preloads, gzipped as nginx would serve them. Target: at most 90 KB
// (docs/decisions/0020-react-router.md: 85 until the app routed with react-router again).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { clientDistDir } from '../../server/src/paths.js';
import { saveBenchResult } from '#test/bench-result';

const TARGET_KB = 90;

const indexPath = join(clientDistDir, 'index.html');
if (!existsSync(indexPath)) {
  console.error('No built client: run `npm run build` first.');
  process.exit(1);
}
const html = readFileSync(indexPath, 'utf8');
const scripts = [
  ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
].map((match) => match[1] ?? '');

let total = 0;
const rows: string[][] = [];
for (const src of scripts) {
  const size = gzipSync(readFileSync(join(clientDistDir, src)), { level: 6 }).length;
  total += size;
  rows.push([`\`${src}\``, `${(size / 1024).toFixed(1)} KB`]);
  console.log(`  ${src.padEnd(40)} ${(size / 1024).toFixed(1)} KB gzip`);
}
const kb = total / 1024;
const summary =
  `client-size: home page JavaScript before interactive: ${kb.toFixed(1)} KB gzip ` +
  `(target ≤ ${TARGET_KB} KB: ${kb <= TARGET_KB ? 'met' : 'NOT met'})`;
console.log(summary);
saveBenchResult({
  title: 'Client size',
  summary,
  setup:
    'The JavaScript the home page loads before it is interactive (the entry script and the modules ' +
    'index.html preloads), gzipped at level 6 as nginx serves it.',
  tables: [{ columns: ['file', 'gzip'], rows }],
});
