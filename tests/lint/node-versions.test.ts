import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// The Node versions Cohort promises (package.json `engines`, docs/development.md#node-versions)
// and the ones its dependencies declare. CI runs on the promised floor (Node 20), so a package
// that declares a newer Node only runs untested on an unsupported version unless it is named
// here, with why it is kept, and the docs say so.

const root = new URL('../..', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const promised = semver.minVersion(manifest.engines.node);

/**
 * Declare a newer Node than the one promised. `cookie` 2 and `content-disposition` 3 did too: the
 * overrides in package.json give @fastify/cookie, light-my-request and @fastify/static the
 * versions before them (the same functions, Node 18 and later), so `npm install` on Node 20 warns
 * only of the one left here.
 */
const KNOWN_NEWER: Record<string, string> = {
  // Comes with the prisma CLI (the peer @prisma/client installs); only `prisma dev` uses it.
  '@prisma/streams-local': 'the prisma CLI’s local dev server, never run by Cohort',
};

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
    expect(promised?.version).toBe('20.19.0');
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
