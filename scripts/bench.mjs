// `npm run bench`: builds the site, runs every benchmark under tests/bench/ in turn (each prints its
// figures as it goes), then writes docs/performance.md from their results, with the machine and the
// date. Benchmarks measure; only the load test also fails (on any error answer or lost request).
// `npm run bench -- load` runs only the benchmarks whose file names contain "load" and leaves the
// report alone. The report's hand-written part (below NOTES_MARKER) is kept on every rewrite.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import prettier from 'prettier';

const REPORT = 'docs/performance.md';
const NOTES_MARKER = '<!-- Hand-written below this line: `npm run bench` keeps it. -->';

const run = (command, args, env = process.env) =>
  spawnSync(command, args, { stdio: 'inherit', env }).status;

if (run('npm', ['run', '--silent', 'build']) !== 0) process.exit(1);
const only = process.argv[2];
const benches = readdirSync('tests/bench')
  .filter((file) => file.endsWith('.ts') && (!only || file.includes(only)))
  .sort();

const resultsDir = mkdtempSync(join(os.tmpdir(), 'cohort-bench-'));
const outcomes = [];
for (const file of benches) {
  console.log(`\n━━ ${file} ━━`);
  const resultFile = join(resultsDir, `${file}.json`);
  const started = Date.now();
  const status = run(process.execPath, ['--import', 'tsx', `tests/bench/${file}`], {
    ...process.env,
    BENCH_RESULT_FILE: resultFile,
  });
  outcomes.push({
    file,
    status,
    seconds: Math.round((Date.now() - started) / 1000),
    result: existsSync(resultFile) ? JSON.parse(readFileSync(resultFile, 'utf8')) : null,
  });
}
rmSync(resultsDir, { recursive: true, force: true });

const failed = outcomes.filter((outcome) => outcome.status !== 0);
if (!only) {
  await writeReport(outcomes);
  console.log(`\nWrote ${REPORT}`);
}
if (failed.length > 0) console.log(`\nFailed: ${failed.map((outcome) => outcome.file).join(', ')}`);
process.exit(failed.length > 0 ? 1 : 0);

/** The first line a command prints (to stdout or stderr), or "not found". */
function versionOf(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error || result.status !== 0) return 'not found';
  return `${result.stdout}${result.stderr}`.trim().split('\n')[0] ?? 'not found';
}

function machine(outcomes) {
  const cpus = os.cpus();
  const osRelease = existsSync('/etc/os-release')
    ? /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1]
    : undefined;
  const databases = [
    ...new Set(outcomes.map((outcome) => outcome.result?.database).filter(Boolean)),
  ];
  return [
    ['CPU', `${cpus[0]?.model.trim() ?? 'unknown'}`],
    ['cores', String(cpus.length)],
    ['memory', `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`],
    ['OS', `${osRelease ?? os.type()} (kernel ${os.release()})`],
    ['Node.js', process.version],
    ['PostgreSQL', databases.join('; ') || 'not used'],
    ['nginx', versionOf('nginx', ['-v']).replace(/^nginx version: /, '')],
    ['Redis', versionOf('redis-server', ['--version'])],
    ['Chromium', versionOf(process.env.CHROMIUM_PATH ?? 'chromium', ['--version'])],
  ];
}

function cell(value) {
  return String(value).replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function table(columns, rows) {
  return [
    `| ${columns.map(cell).join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

async function writeReport(outcomes) {
  const now = new Date();
  const lines = [
    '# Performance',
    '',
    `Written by \`npm run bench\` on ${now.toISOString().slice(0, 10)} at ` +
      `${now.toISOString().slice(11, 16)} UTC: the figures below are that run's. Run it again to ` +
      `refresh them; the part below the line at the end is written by hand and kept.`,
    '',
    '## Machine',
    '',
    table(['', ''], machine(outcomes)),
    '',
    'The load generator, nginx, both app servers, PostgreSQL and Redis share these cores, so the ' +
      'figures are a floor for the site on a machine of its own.',
    '',
    '## Summary',
    '',
    ...outcomes.map(
      (outcome) =>
        `- \`tests/bench/${outcome.file}\` (${outcome.seconds} s): ` +
        (outcome.result?.summary ?? 'no result') +
        (outcome.status !== 0 ? ` **(failed: exit ${outcome.status})**` : ''),
    ),
  ];
  for (const outcome of outcomes) {
    const result = outcome.result;
    lines.push('', `## ${result?.title ?? outcome.file}`, '');
    if (!result) {
      lines.push(
        `\`tests/bench/${outcome.file}\` exited with ${outcome.status} and reported nothing.`,
      );
      continue;
    }
    lines.push(result.setup);
    if (result.database) lines.push('', `Database: ${result.database}.`);
    for (const t of result.tables ?? []) {
      lines.push('');
      if (t.caption) lines.push(`${t.caption}:`, '');
      lines.push(table(t.columns, t.rows));
    }
    if (result.notes?.length) lines.push('', ...result.notes.map((note) => `- ${note}`));
  }

  const previous = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '';
  const kept = previous.includes(NOTES_MARKER)
    ? previous.slice(previous.indexOf(NOTES_MARKER) + NOTES_MARKER.length)
    : '\n\n## Findings\n\nWhat the benchmarks and fault tests found, and what became of it.\n';
  const markdown = `${lines.join('\n')}\n\n${NOTES_MARKER}${kept}`;
  const options = (await prettier.resolveConfig(REPORT)) ?? {};
  writeFileSync(REPORT, await prettier.format(markdown, { ...options, filepath: REPORT }));
}
