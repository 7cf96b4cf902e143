import { describe, expect, it } from 'vitest';
import { judgeSkips } from './skips.js';

describe('skipped tests on CI', () => {
  const ci = { CI: '1' };

  it('fails a CI run on a skip the list does not name, and only lists it elsewhere', () => {
    const skips = [{ file: 'server/src/x.test.ts', test: 'needs a program > runs it' }];
    expect(judgeSkips(skips, 'Vitest', ci).fail).toBe(true);
    const local = judgeSkips(skips, 'Vitest', {});
    expect(local.fail).toBe(false);
    expect(local.lines.join('\n')).toContain('server/src/x.test.ts › needs a program > runs it');
  });

  it('lets a test that reads the migration samples beside the repository skip when they are absent', () => {
    const judged = judgeSkips(
      [
        {
          file: 'server/src/imports/run-import.test.ts',
          test: 'a whole import > cleans the right-to-left override out of the slug',
          note: '/elsewhere/shared/migration-samples/wordpress/wxr.xml is not here',
        },
        {
          file: 'server/src/imports/read-export.test.ts',
          test: 'readExport on every shared migration sample > Medium: eight posts',
        },
      ],
      'Vitest',
      ci,
    );
    expect(judged.fail).toBe(false);
    expect(judged.lines.filter((line) => line.includes('[allowed'))).toHaveLength(2);
  });

  it('does not let another skip in those files pass', () => {
    const judged = judgeSkips(
      [{ file: 'server/src/imports/run-import.test.ts', test: 'a whole import > needs Redis' }],
      'Vitest',
      ci,
    );
    expect(judged.fail).toBe(true);
  });
});
