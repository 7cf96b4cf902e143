// The writing desk's costs (docs/decisions/0017-writing-desk.md): the time and peak memory to make
// a 12-megapixel upload ready (targets ≤ 2 s, ≤ 300 MB), and the editor's JavaScript, which only
// the desk loads.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { saveBenchResult } from '#test/bench-result';
import { clientDistDir } from '../../server/src/paths.js';
import { processImage } from '../../server/src/uploads/process-image.js';

// As the image runs it (Dockerfile): two malloc arenas, so libvips' threads do not fragment the
// heap. Measured in a process of its own started that way.
if (process.env.MALLOC_ARENA_MAX !== '2') {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, MALLOC_ARENA_MAX: '2' },
  });
  process.exit(child.status ?? 1);
}

const RUNS = 5;

/** A 4000×3000 photo-like JPEG (smooth gradients and fine grain), turned by EXIF, with GPS. */
async function twelveMegapixelPhoto(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const grain = (seed >> 16) % 24;
      const i = (y * width + x) * 3;
      pixels[i] = ((x * 200) / width + grain) | 0;
      pixels[i + 1] = ((y * 180) / height + grain) | 0;
      pixels[i + 2] = (((x + y) * 120) / (width + height) + 60 + grain) | 0;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2637/100' } })
    .toBuffer();
}

const photo = await twelveMegapixelPhoto();
const timings: number[] = [];
let peakGrowth = 0;
for (let run = 0; run < RUNS; run++) {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  const started = performance.now();
  const processed = await processImage(photo);
  timings.push(performance.now() - started);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  peakGrowth = Math.max(peakGrowth, peak - base);
  if (run === 0) {
    const bytes = processed.files.reduce((sum, file) => sum + file.bytes.length, 0);
    console.log(
      `  ${processed.files.length} copies, ${(bytes / 1024).toFixed(0)} KB in all: ` +
        processed.files.map((file) => file.name.slice(21)).join(', '),
    );
  }
}
timings.sort((a, b) => a - b);
const median = timings[Math.floor(timings.length / 2)] ?? 0;
const worst = timings[timings.length - 1] ?? 0;
const peakMb = peakGrowth / 1024 / 1024;

const editorChunk = readdirSync(join(clientDistDir, 'assets')).find(
  (name) => name.startsWith('post-editor-page-') && name.endsWith('.js'),
);
const editorKb = editorChunk
  ? gzipSync(readFileSync(join(clientDistDir, 'assets', editorChunk)), { level: 6 }).length / 1024
  : Number.NaN;

const summary =
  `writing-desk: a 12-megapixel upload made ready in ${(median / 1000).toFixed(2)} s median ` +
  `(worst ${(worst / 1000).toFixed(2)} s; target ≤ 2 s: ${worst <= 2000 ? 'met' : 'NOT met'}), ` +
  `peak memory +${peakMb.toFixed(0)} MB (target ≤ 300 MB: ${peakMb <= 300 ? 'met' : 'NOT met'}); ` +
  `the editor's JavaScript ${editorKb.toFixed(1)} KB gzip, loaded in the desk only`;
console.log(summary);
saveBenchResult({
  title: 'Writing desk',
  summary,
  setup:
    `A 4000×3000 JPEG (${(photo.length / 1024 / 1024).toFixed(1)} MB, EXIF orientation 6, GPS) ` +
    `through the upload's processing (server/src/uploads/process-image.ts: checked, turned upright, ` +
    `stripped, 480–2400 wide WebP and 480–1600 wide AVIF), ${RUNS} times in one process started ` +
    'with MALLOC_ARENA_MAX=2 as the image runs it; peak memory is the largest growth of the ' +
    "process's resident size during one upload. The editor's size is its chunk gzipped at level 6.",
  tables: [
    {
      columns: ['Figure', 'Value'],
      rows: [
        ['Median time', `${(median / 1000).toFixed(2)} s`],
        ['Slowest', `${(worst / 1000).toFixed(2)} s`],
        ['Peak memory growth', `${peakMb.toFixed(0)} MB`],
        ['Editor chunk (gzip)', `${editorKb.toFixed(1)} KB`],
      ],
    },
  ],
});
