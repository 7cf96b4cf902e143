import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The real exports from Ghost, WordPress, Substack and Medium that sit beside the repository
 * (`../shared/migration-samples/`, with their SOURCES.md) on the team's machines and in CI. The
 * only path outside the repository a test reads (tests/lint/inside-repository.test.ts allows this
 * file alone): the WordPress files are GPL and may not be copied in. Every test that reads them
 * is skipped, saying so, where they are absent: a fresh clone elsewhere passes on the
 * repository's own fixtures.
 */
export const MIGRATION_SAMPLES = resolve(
  join(new URL('../..', import.meta.url).pathname, '..', 'shared', 'migration-samples'),
);

export const haveMigrationSamples = existsSync(MIGRATION_SAMPLES);

/** A sample's path, such as `sample('ghost/v4_export.json')`. */
export const sample = (path: string): string => join(MIGRATION_SAMPLES, path);
