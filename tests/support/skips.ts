/**
 * A test that skips itself because the machine lacks something (a build, a PostgreSQL server, a
 * program, the migration samples) passes quietly: on CI (`CI` set), that is a failure. Both
 * runners' reporters (vitest-skips-reporter.ts, playwright-skips-reporter.ts) list every skip at
 * the end of a run, and with `CI` set fail the run on any skip this list does not name.
 *
 * A skip belongs here only when no machine of ours can run the test, with the reason.
 */
export const ALLOWED_SKIPS: readonly { file: string; test: string | RegExp; reason: string }[] = [
  ...[
    'server/src/imports/html-to-markdown.test.ts',
    'server/src/imports/import-authors.test.ts',
    'server/src/imports/import-comments.test.ts',
    'server/src/imports/read-export.test.ts',
    'server/src/imports/run-import.test.ts',
    'tests/e2e/phone-widths.spec.ts',
  ].map((file) => ({
    file,
    // Each of these tests, or its skip's note, names the sample it reads.
    test: /sample|theme unit test/i,
    reason:
      'Real exports from other platforms sit beside the repository (../shared/migration-samples), never in it (the WordPress ones are GPL): a clone elsewhere has none to read.',
  })),
];

export interface Skip {
  /** The test file, relative to the repository. */
  file: string;
  /** The test's full name (its describes' and its own). */
  test: string;
  /** What `context.skip(note)` said, if anything. */
  note?: string | undefined;
}

const allowed = (skip: Skip) =>
  ALLOWED_SKIPS.some(
    (entry) =>
      entry.file === skip.file &&
      (typeof entry.test === 'string'
        ? entry.test === skip.test
        : entry.test.test(`${skip.test} ${skip.note ?? ''}`)),
  );

/**
 * What a reporter prints at the end of a run, and whether the run fails: every skip, one line
 * each, those on the allow-list said to be; on CI, any other fails the run.
 */
export function judgeSkips(
  skips: readonly Skip[],
  runner: string,
  env: NodeJS.ProcessEnv = process.env,
): { lines: string[]; fail: boolean } {
  if (skips.length === 0) return { lines: [], fail: false };
  const onCi = Boolean(env.CI);
  const unexplained = skips.filter((skip) => !allowed(skip));
  const lines = [
    `${runner}: ${skips.length} skipped ${skips.length === 1 ? 'test' : 'tests'}${
      onCi && unexplained.length > 0 ? ', which fail a run on CI (CI is set)' : ''
    }:`,
    ...skips.map(
      (skip) =>
        `  ${skip.file} › ${skip.test}${skip.note ? ` (${skip.note})` : ''}${
          allowed(skip) ? ' [allowed: tests/support/skips.ts]' : ''
        }`,
    ),
  ];
  if (onCi && unexplained.length > 0) {
    lines.push(
      'Make each run on this machine (install what it needs), or, if no machine of ours can run it, name it with the reason in ALLOWED_SKIPS (tests/support/skips.ts).',
    );
  }
  return { lines, fail: onCi && unexplained.length > 0 };
}
