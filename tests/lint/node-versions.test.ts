import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// The Node versions Cohort promises (package.json `engines`, docs/development.md#node-versions)
// and the ones its dependencies declare. A package that declares a newer Node than the floor
// would run on a Node it does not support unless it is named here, with why it is kept, and the
// docs say so.

const root = new URL('../..', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const promised = semver.minVersion(manifest.engines.node);

/** Declare a newer Node than the one promised, and are kept all the same: none since Node 22. */
const KNOWN_NEWER: Record<string, string> = {};

/** Every package the production image installs (`npm ci --omit=dev --omit=optional`). */
function productionPackages(): { name: string; version: string; node?: string }[] {
  const paths = execFileSync(
    'npm',
    ['ls', '--omit=dev', '--omit=optional', '--all', '--parseable'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .split('\n')
    .filter((path) => path.includes('node_modules'));
  return [...new Set(paths)].map((path) => {
    const pkg = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      engines?: { node?: string };
    };
    return { name: pkg.name, version: pkg.version, node: pkg.engines?.node };
  });
}

describe('Node versions', () => {
  it('promises a Node the machine running the tests is', () => {
    expect(promised?.version).toBe('22.13.0');
    expect(semver.satisfies(process.versions.node, manifest.engines.node)).toBe(true);
  });

  it('runs nothing in production that refuses the promised Node, but the packages named here', () => {
    const refusing = productionPackages()
      .filter(({ node }) => node && promised && !semver.satisfies(promised, node))
      .map(({ name, version, node }) => ({ name, line: `${name}@${version} wants node ${node}` }));
    expect(refusing.filter(({ name }) => !(name in KNOWN_NEWER)).map(({ line }) => line)).toEqual(
      [],
    );
    // Each one named still refuses it: when it no longer does, its line here goes.
    expect(refusing.map(({ name }) => name).sort()).toEqual(Object.keys(KNOWN_NEWER).sort());
  });
});
