import { defineConfig } from 'vitest/config';

/**
 * Files that measure time (delays, timeouts, a timing side channel, how fast a process stops or
 * restarts): one at a time, after the rest, so the load of other files never decides their
 * outcome (`npm test` runs them alone, before the browser lane: scripts/test.mjs). The other
 * operator tests (nginx, PgBouncer, compose, Kubernetes) run side by side.
 */
const ONE_AT_A_TIME = [
  'tests/faults/**/*.test.ts',
  'tests/newsletter/**/*.test.ts',
  'tests/ops/database-start.test.ts',
  'tests/ops/graceful-shutdown.test.ts',
  'tests/ops/rolling-restart.test.ts',
  'server/src/accounts/account-input.test.ts',
  'server/src/accounts/sign-in-throttle.test.ts',
  'server/src/http/edges.test.ts',
  'server/src/imports/import-jobs.test.ts',
  'server/src/routes/auth/auth.test.ts',
  'server/src/routes/auth/proven-addresses.test.ts',
  'server/src/routes/auth/sign-in-by-link.test.ts',
  'server/src/routes/health/health.test.ts',
  'server/src/site/site-pages.test.ts',
  'server/src/stripe/stripe-operations.test.ts',
  'server/src/webhooks/webhook-delivery.test.ts',
];

/**
 * `npm run test:quick`, the lane to run before a commit: the unit and integration tests without
 * the suites that start nginx, PgBouncer or whole server processes, or cut them off mid-work
 * (tests/ops, tests/faults, tests/newsletter). `npm test` runs everything.
 */
const QUICK = process.env.COHORT_TEST_LANE === 'quick';
const NOT_QUICK = ['tests/ops/**', 'tests/faults/**', 'tests/newsletter/**'];

export default defineConfig({
  test: {
    globalSetup: ['tests/support/vitest-global-setup.ts'],
    setupFiles: ['tests/support/vitest-setup.ts'],
    pool: 'forks',
    // A worker keeps the modules it imported from one file to the next: importing the app and its
    // libraries again for every file cost about 190 s of a run's CPU. Nothing in the app keeps
    // state in a module that a test depends on (each test builds its own app and database).
    isolate: false,
    // Every wait inside a test is for an event; these are the deadlines for a machine busy with
    // the rest of the suite, where starting a server process has taken over 30 s.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The last lists what was skipped, and fails a run on CI for a skip not allowed (skips.ts).
    reporters: ['default', 'json', './tests/support/vitest-skips-reporter.ts'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'side by side',
          include: [
            'server/**/*.test.ts',
            'client/**/*.test.{ts,tsx}',
            'scripts/**/*.test.ts',
            'tests/**/*.test.ts',
          ],
          exclude: [...ONE_AT_A_TIME, ...(QUICK ? NOT_QUICK : [])],
          // Most files wait on PostgreSQL or a child process more than they compute: three at a
          // time keep two cores busy (Vitest's default here would be one: the cores less one).
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'one at a time',
          include: ONE_AT_A_TIME,
          exclude: QUICK ? NOT_QUICK : [],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
