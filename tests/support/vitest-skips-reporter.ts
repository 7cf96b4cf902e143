import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { judgeSkips, type Skip } from './skips.js';

/**
 * Lists the tests a Vitest run skipped, and on CI fails the run for any skip not allowed
 * (tests/support/skips.ts). A run narrowed by name (`-t`) skips the rest on purpose: not counted.
 */
export default class SkipsReporter implements Reporter {
  private root = process.cwd();
  private narrowed = false;

  onInit(vitest: Vitest) {
    this.root = vitest.config.root;
    this.narrowed = Boolean(vitest.config.testNamePattern);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    if (this.narrowed) return;
    const skips: Skip[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped') continue;
        skips.push({
          file: relative(this.root, module.moduleId),
          test: test.fullName,
          note: result.note,
        });
      }
    }
    const { lines, fail } = judgeSkips(skips, 'Vitest');
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
    // Vitest sets the exit code before it calls this, and only ever to 1.
    if (fail) process.exitCode = 1;
  }
}
