import { dirname, relative } from 'node:path';
import type {
  FullConfig,
  FullResult,
  Reporter,
  TestCase,
  TestResult,
} from '@playwright/test/reporter';
import { judgeSkips, type Skip } from './skips.js';

/**
 * Lists the tests a Playwright run skipped (`test.skip`, `test.fixme`), and on CI fails the run
 * for any skip not allowed (tests/support/skips.ts).
 */
export default class SkipsReporter implements Reporter {
  private root = process.cwd();
  private readonly skips: Skip[] = [];

  onBegin(config: FullConfig) {
    if (config.configFile) this.root = dirname(config.configFile);
  }

  onTestEnd(test: TestCase, result: TestResult) {
    if (result.status !== 'skipped') return;
    const note = test.annotations.find((annotation) => annotation.type === 'skip')?.description;
    this.skips.push({
      file: relative(this.root, test.location.file),
      test: test.titlePath().slice(3).join(' > '),
      note,
    });
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    const { lines, fail } = judgeSkips(this.skips, 'Playwright');
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
    return fail && result.status === 'passed' ? { status: 'failed' } : undefined;
  }
}
