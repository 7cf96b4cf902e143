// The last step of `npm run build:client`: every compressible file of the built client gets a `.gz`
// and a `.br` beside it, compressed once at the highest levels, so nginx (`gzip_static`,
// `brotli_static`) and the Node server (@fastify/static's `preCompressed`) send them without
// compressing anything per request. Source maps leave the public folder for dist/sourcemaps/ (the
// bundles do not reference them: Vite's `sourcemap: 'hidden'`), where an operator can take them to
// an error tracker; nothing serves them. The prerendered pages (dist/pages) are not compressed here:
// the server puts SITE_URL into them at start (one image serves any site), then compresses each once.
import {
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const clientDir = join(root, 'dist/client');
const sourcemapsDir = join(root, 'dist/sourcemaps');

/** Text formats (and the icon, which is a bitmap nobody compressed); PNGs are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|xml|txt|webmanifest|ico)$/;
/** Below this, a compressed copy saves less than its own headers cost (nginx's gzip_min_length). */
const MIN_BYTES = 256;

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

// Vite empties dist/client on each build: the maps of an earlier build go too.
rmSync(sourcemapsDir, { recursive: true, force: true });
let maps = 0;
let compressed = 0;
let before = 0;
let afterGzip = 0;
let afterBrotli = 0;
for (const file of [...filesUnder(clientDir)]) {
  if (file.endsWith('.map')) {
    const target = join(sourcemapsDir, relative(clientDir, file));
    mkdirSync(dirname(target), { recursive: true });
    renameSync(file, target);
    maps += 1;
    continue;
  }
  if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
  const body = readFileSync(file);
  const gzip = gzipSync(body, { level: 9 });
  const brotli = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  // A copy no smaller than the file is not worth sending (nginx then sends the file itself).
  if (gzip.length < body.length) writeFileSync(`${file}.gz`, gzip);
  if (brotli.length < body.length) writeFileSync(`${file}.br`, brotli);
  compressed += 1;
  before += body.length;
  afterGzip += Math.min(gzip.length, body.length);
  afterBrotli += Math.min(brotli.length, body.length);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
console.log(
  `precompressed ${compressed} files (${kb(before)} → gzip ${kb(afterGzip)}, brotli ${kb(afterBrotli)}); ` +
    `${maps} source maps moved to dist/sourcemaps/`,
);
