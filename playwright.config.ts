import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, findBrowserForTests, findChromium } from './tests/support/chromium.js';
import { SITES, type SiteOptions } from './tests/e2e/sites.js';

/**
 * One project per site (tests/e2e/sites.ts), each naming the specs that run on it; the plain site
 * takes every spec no other project names. A worker starts a site (about 20 s on a busy machine)
 * each time it turns to a project of other options, so each project runs on one worker at a time
 * (`workers: 1`) and starts its site once, where specs choosing their own options started one
 * each time the options changed. The projects come largest first, by their time in a clean-clone run (desk 184 s,
 * editor 149, paying 121, plain 106, phones 53, paywalled 48, the rest under 30 each): the two
 * workers take the two largest, then each the next one left, and finish about together.
 */
const PROJECTS: { name: string; site: SiteOptions; specs?: string[]; fullBrowser?: true }[] = [
  {
    name: 'desk',
    site: SITES.desk,
    specs: [
      'account-comp',
      'analytics',
      'comments',
      'desk-authors',
      'desk-ghost-keys',
      'desk-home',
      'desk-import',
      'desk-integrations',
      'desk-missing-images',
      'desk-kinds',
      'desk-podcast',
      'desk-posts-bulk',
      'desk-sections',
      'members-only',
      'standalone-pages',
    ],
  },
  // The desk's site again, for the editor's specs: with the rest they were one worker's 330 s
  // while the other worker ran every other project, and the run waited for them.
  {
    name: 'editor',
    site: SITES.desk,
    specs: [
      'editor',
      'editor-cards',
      'editor-publishing',
      'editor-words',
      'embeds',
      'newsletter-audience',
    ],
  },
  {
    name: 'paying',
    site: SITES.paying,
    specs: [
      'desk',
      'desk-gifts',
      'desk-seats',
      'first-paint',
      'gifts',
      'newsletter-archive',
      'perks',
      'plans',
      'proven-addresses',
      'seats',
      'tier-teaser',
      'tiers',
    ],
  },
  // Its own site: the tier its gifts and offer name stays, out of the paying site's pages.
  { name: 'gift-tiers', site: SITES.paying, specs: ['gift-tiers'] },
  // Its own site: a second tier changes the Join dialog the paying site's other specs open.
  { name: 'tier-join', site: SITES.paying, specs: ['tier-join'] },
  { name: 'plain', site: SITES.plain },
  // Its own site: WordPress's theme unit test (186 posts and pages) stays out of the desk's.
  { name: 'phones', site: SITES.desk, specs: ['phone-widths', 'desk-phone'] },
  { name: 'paywalled', site: SITES.paywalled, specs: ['accounts', 'payments'] },
  // Its own site: the look its owner chooses (dark, other fonts) stays out of the other specs' pages.
  { name: 'settings', site: SITES.desk, specs: ['desk-settings', 'desk-redirects'] },
  // The full browser, not the headless shell the other specs run in: in the shell, the first
  // offline test saw its words reach the server while the context was offline (once in four runs
  // alone, once in a full run; never in the full browser, four runs alone and every CI run). Not
  // understood yet: most likely a request of the closing tab let go past the offline emulation.
  { name: 'desk, full browser', site: SITES.desk, specs: ['editor-offline'], fullBrowser: true },
  { name: 'renamed', site: SITES.renamed, specs: ['payments-off', 'site-name', 'social-link'] },
  // Its own site: Direct Action renamed and Collective Action deleted stay out of the other specs.
  { name: 'sections', site: SITES.desk, specs: ['desk-special-sections'] },
  { name: 'mail-log', site: SITES.mailLog, specs: ['desk-mailbox'] },
  { name: 'localhost', site: SITES.localhost, specs: ['passkeys'] },
  // Its own site: removing the samples would take them from the desk's other specs.
  { name: 'samples', site: SITES.desk, specs: ['desk-samples'] },
];
const namedSpecs = PROJECTS.flatMap((project) => project.specs ?? []).map(
  (spec) => `${spec}.spec.ts`,
);

export default defineConfig<object, SiteOptions>({
  testDir: 'tests/e2e',
  // Its own folder: Playwright empties it at its start, and Vitest's reports are in test-results/.
  outputDir: 'test-results/browser',
  globalSetup: './tests/support/playwright-global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  forbidOnly: Boolean(process.env.CI),
  reporter: [
    ['list'],
    ['json', { outputFile: 'test-results/playwright.json' }],
    // Lists what was skipped, and fails a run on CI for a skip not allowed (skips.ts).
    ['./tests/support/playwright-skips-reporter.ts'],
  ],
  use: { trace: 'retain-on-failure' },
  projects: PROJECTS.map(({ name, site, specs, fullBrowser }) => ({
    name,
    workers: 1,
    ...(specs ? { testMatch: specs.map((spec) => `${spec}.spec.ts`) } : { testIgnore: namedSpecs }),
    use: {
      ...devices['Desktop Chrome'],
      channel: undefined,
      ...site,
      launchOptions: {
        executablePath: fullBrowser ? findChromium() : findBrowserForTests(),
        args: CHROMIUM_ARGS,
      },
    },
  })),
});
