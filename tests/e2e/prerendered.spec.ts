import { expect, test } from './fixtures.js';

const PAGES = [
  '/',
  '/health',
  '/health/sleep-debt-reset',
  '/wealth',
  '/direct-action',
  '/collective',
  '/empowerment',
  '/early-access',
  '/perks',
  '/privacy',
  '/home-buying',
  '/newsletter',
  '/newsletter/first-issue',
  '/newsletter/members-briefing',
];

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

for (const path of PAGES) {
  for (const viewport of WIDTHS) {
    test(`${path} arrives as HTML with its text, and hydrates without a warning or a layout shift (${viewport.name})`, async ({
      page,
      browser,
    }) => {
      await page.setViewportSize(viewport);
      // Without JavaScript: what a crawler or a link preview sees.
      const noScript = await browser.newContext({ javaScriptEnabled: false });
      const bare = await noScript.newPage();
      // The HTML is what is checked: its images need not arrive (a list page has thirty).
      await bare.goto(path, { waitUntil: 'domcontentloaded' });
      const heading = (await bare.getByRole('heading', { level: 1 }).textContent()) ?? '';
      expect(heading.trim().length, 'a heading before JavaScript').toBeGreaterThan(0);
      await noScript.close();

      // With JavaScript: the same page, adopted as it is. The fixture fails the test on any console
      // error, hydration mismatches included.
      await page.addInitScript(() => {
        const shifts: { value: number; moved: string[] }[] = [];
        (window as unknown as { layoutShifts: typeof shifts }).layoutShifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
            sources: { node?: Node | null }[];
          })[]) {
            if (entry.hadRecentInput) continue;
            const moved = entry.sources.map((source) =>
              source.node instanceof Element
                ? `${source.node.tagName.toLowerCase()}.${source.node.className}`
                : String(source.node?.nodeName),
            );
            shifts.push({ value: entry.value, moved });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await page.waitForLoadState('networkidle');
      const shifts = await page.evaluate(
        () =>
          (window as unknown as { layoutShifts: { value: number; moved: string[] }[] })
            .layoutShifts,
      );
      const cumulative = shifts.reduce((sum, shift) => sum + shift.value, 0);
      expect(cumulative, `layout shifts: ${JSON.stringify(shifts)}`).toBeLessThan(0.01);
    });
  }
}
