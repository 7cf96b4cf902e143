import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The image installs `npm ci --omit=dev --omit=optional` (Dockerfile): every package the server
// imports at run time must be a dependency, or, for the embedded database only, an optional one
// imported on demand. A server import of a devDependency would pass every test here and crash the
// image at start.

const root = new URL('../..', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

function runtimeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return runtimeFiles(path);
    return /\.(ts|js|mjs)$/.test(entry.name) && !/\.test\.ts$|\.d\.ts$/.test(entry.name)
      ? [path]
      : [];
  });
}

const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const isPackage = (specifier: string) =>
  !specifier.startsWith('.') &&
  !specifier.startsWith('#') &&
  !specifier.startsWith('node:') &&
  !builtinModules.includes(packageOf(specifier));

/** `import x from 'p'` / `export … from 'p'` (not `import type`), and `import('p')` apart. */
function importsOf(source: string) {
  const code = source.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
  const statics = [
    ...code.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm),
  ].map((match) => match[1] ?? '');
  const dynamics = [...code.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map(
    (match) => match[1] ?? '',
  );
  return { statics: statics.filter(isPackage), dynamics: dynamics.filter(isPackage) };
}

describe('the production image’s dependencies', () => {
  const files = [
    ...runtimeFiles(join(root, 'server/src')),
    ...runtimeFiles(join(root, 'contract')),
  ];

  it('finds the server’s imports (the check reads real files)', () => {
    const all = files.flatMap((file) => importsOf(readFileSync(file, 'utf8')).statics);
    expect(all).toContain('fastify');
    expect(all).toContain('pg-boss');
  });

  it('has every package the server imports at run time among the dependencies', () => {
    const missing: string[] = [];
    for (const file of files) {
      const { statics, dynamics } = importsOf(readFileSync(file, 'utf8'));
      for (const specifier of statics) {
        if (!manifest.dependencies[packageOf(specifier)])
          missing.push(`${relative(root, file)}: ${specifier}`);
      }
      for (const specifier of dynamics) {
        const name = packageOf(specifier);
        if (!manifest.dependencies[name] && !manifest.optionalDependencies?.[name])
          missing.push(`${relative(root, file)}: import('${specifier}')`);
      }
    }
    expect(missing).toEqual([]);
  });
});
