import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'server/**/*.test.ts',
      'client/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    globalSetup: ['tests/support/vitest-global-setup.ts'],
    setupFiles: ['tests/support/vitest-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
