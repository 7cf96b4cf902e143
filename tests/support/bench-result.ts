import { writeFileSync } from 'node:fs';

/** A table in a benchmark's section of docs/performance.md. */
export interface BenchTable {
  caption?: string;
  columns: string[];
  rows: (string | number)[][];
}

/**
 * What one benchmark reports to `npm run bench` (scripts/bench.mjs), which renders every result into
 * docs/performance.md. Benchmarks still print their figures; this is the same figures as data.
 */
export interface BenchResult {
  /** The section heading. */
  title: string;
  /** The headline figure in one line. */
  summary: string;
  /** What ran against what, in a sentence or two. */
  setup: string;
  /** The database the figures were taken with, e.g. "PostgreSQL 15.19 (TEST_DATABASE_URL)". */
  database?: string;
  tables?: BenchTable[];
  notes?: string[];
}

/** Writes the result where `npm run bench` asked for it (BENCH_RESULT_FILE); a no-op otherwise. */
export function saveBenchResult(result: BenchResult): void {
  const file = process.env.BENCH_RESULT_FILE;
  if (file) writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
}
