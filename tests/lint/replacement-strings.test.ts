import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Text spliced into a page through a replacement string has its `$&`, `` $` `` and `$'` expanded
// (a search for a$`$`… once made a 48 MB page): `npm run lint` (eslint.config.js) must fail each
// wrong splice, and pass a function or a string literal.

const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function restrictedSyntax(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-syntax')
    .length;
}

const declarations = 'declare const page: string;\ndeclare const title: string;\n';

describe('replacement strings', () => {
  it.each([
    ['a template holding text', 'page.replace("<title>", `<title>${title}`);'],
    ['a variable', 'page.replaceAll("__NAME__", title);'],
    ['a call', 'page.replace(/<h1>/, String(title));'],
  ])('fails lint for text spliced in as %s', async (_name, code) => {
    for (const filePath of [
      'server/src/wrong.ts',
      'contract/wrong.ts',
      'client/src/lib/wrong.ts',
    ]) {
      expect(
        await restrictedSyntax(filePath, `${declarations}${code}\nexport {};\n`),
        filePath,
      ).toBe(1);
    }
  });

  it.each([
    ['a function', 'page.replace("<title>", () => `<title>${title}`);'],
    ['a string literal using a group on purpose', 'page.replace(/<(h1)>/, \'<$1 class="x">\');'],
    ['a template without text', 'page.replaceAll("a", `b`);'],
  ])('passes lint for %s', async (_name, code) => {
    expect(
      await restrictedSyntax('server/src/right.ts', `${declarations}${code}\nexport {};\n`),
    ).toBe(0);
  });
});
