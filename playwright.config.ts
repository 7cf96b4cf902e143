import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, findBrowserForTests } from './tests/support/chromium.js';

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/support/playwright-global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    trace: 'retain-on-failure',
    launchOptions: { executablePath: findBrowserForTests(), args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } }],
});
