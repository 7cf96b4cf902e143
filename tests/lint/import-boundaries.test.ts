import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The client's import direction is enforced by `npm run lint` (eslint.config.js): these wrong
// imports must each fail it, and the right ones must pass.

const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('import boundaries', () => {
  it.each([
    [
      'a component importing a feature',
      'client/src/components/wrong.tsx',
      "import { PaywallModal } from '../features/paywall/paywall-modal';",
    ],
    [
      'shared code importing the app',
      'client/src/lib/wrong.ts',
      "import { paths } from '../app/router';",
    ],
    [
      'a feature importing another feature',
      'client/src/features/account/wrong.tsx',
      "import { CheckoutReturn } from '../payments/checkout-return';",
    ],
    [
      'a feature importing the app',
      'client/src/features/paywall/wrong.tsx',
      "import { Layout } from '../../app/layout/layout';",
    ],
    [
      'the client importing the server',
      'client/src/lib/wrong.ts',
      "import { buildApp } from '../../../server/src/app';",
    ],
    [
      'the contract importing the server',
      'contract/wrong.ts',
      "import { buildApp } from '../server/src/app.js';",
    ],
    [
      'the server importing the client',
      'server/src/wrong.ts',
      "import { paths } from '../../client/src/config/paths.js';",
    ],
  ])('fails lint for %s', async (_name, filePath, code) => {
    expect(await restrictedImports(filePath, `${code}\nexport {};\n`)).toHaveLength(1);
  });

  it.each([
    [
      'the app importing a feature',
      'client/src/app/right.tsx',
      "import '../features/paywall/paywall-modal';",
    ],
    [
      'a feature importing shared code',
      'client/src/features/account/right.tsx',
      "import '../../lib/session/session-context';",
    ],
    ['a component importing lib', 'client/src/components/right.tsx', "import '../lib/api-client';"],
  ])('passes lint for %s', async (_name, filePath, code) => {
    expect(await restrictedImports(filePath, `${code}\nexport {};\n`)).toEqual([]);
  });
});
