import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { serverEdgeFolders, serverLayers } from '../../eslint.config.js';

// No import runs in a circle (server, contract, client), and none runs back up the server's
// layers: serverLayers in eslint.config.js, which lint also keeps file by file. Every folder of
// server/src has its place there, so a new folder is placed before anything may import it.

const root = new URL('../..', import.meta.url).pathname;

/** Prisma's generated client is not ours to shape; tests drive the app from outside. */
const NOT_CHECKED = /(^|\/)generated\/|\.test\.tsx?$|\.d\.ts$/;

/** Each source file (from the repository's root) and the source files it imports. */
type ImportGraph = Map<string, string[]>;

function readImportGraph(folders: readonly string[]): ImportGraph {
  const files = folders.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      .map((path) => join(folder, path))
      .filter((path) => /\.tsx?$/.test(path) && !NOT_CHECKED.test(path)),
  );
  const known = new Set(files);
  // `./x.js` names x.ts; the client leaves the extension out (`./x`, `./x/index`).
  const resolve = (from: string, specifier: string): string | undefined => {
    const path = normalize(join(dirname(from), specifier)).replace(/\.js$/, '');
    return [`${path}.ts`, `${path}.tsx`, `${path}/index.ts`, `${path}/index.tsx`].find((file) =>
      known.has(file),
    );
  };
  return new Map(
    files.map((file) => {
      // Static, type-only, re-exported and dynamic (`import('./x')`) imports alike.
      const { importedFiles } = ts.preProcessFile(
        readFileSync(join(root, file), 'utf8'),
        true,
        true,
      );
      const imported = importedFiles
        .map(({ fileName }) => fileName)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => resolve(file, specifier))
        .filter((target): target is string => target !== undefined);
      return [file, [...new Set(imported)]];
    }),
  );
}

/** The circles of imports: Tarjan's strongly connected components of more than one file. */
function circlesOf(graph: ImportGraph): string[][] {
  // Each file seen: the order it was reached in, and the earliest file on the stack it reaches.
  const seen = new Map<string, { order: number; reaches: number }>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string) => {
    const self = { order: seen.size, reaches: seen.size };
    seen.set(file, self);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!seen.has(next)) visit(next);
      const other = seen.get(next);
      if (other && stack.includes(next)) self.reaches = Math.min(self.reaches, other.reaches);
    }
    if (self.reaches !== self.order) return;
    const circle = stack.splice(stack.indexOf(file));
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const file of graph.keys()) if (!seen.has(file)) visit(file);
  return circles;
}

/** `server/src/<folder>/…` → the folder; a root file (config.ts…) or another side → undefined. */
const folderOf = (file: string) => /^server\/src\/([^/]+)\//.exec(file)?.[1];

/** The server's imports that run up or across its layers, into an edge, or into a folder in none. */
function wrongImports(
  graph: ImportGraph,
  layers: readonly (readonly string[])[],
  edges: readonly string[],
): string[] {
  const levels = new Map(layers.flatMap((folders, level) => folders.map((f) => [f, level])));
  const wrong: string[] = [];
  for (const [file, imported] of graph) {
    const from = folderOf(file);
    // The edges call the domain and each other; the root files are shared by every layer.
    if (from === undefined || edges.includes(from)) continue;
    for (const target of imported) {
      const to = folderOf(target);
      if (to === from || !target.startsWith('server/src/')) continue;
      const why =
        to === undefined
          ? /^server\/src\/(app|server)\.ts$/.test(target) && 'the app is built above every layer'
          : edges.includes(to)
            ? `${to}/ is an edge: it calls ${from}/, not the other way`
            : (levels.get(to) ?? Infinity) >= (levels.get(from) ?? -Infinity) &&
              (!levels.has(to) || !levels.has(from)
                ? `${levels.has(to) ? from : to}/ is in no layer of serverLayers`
                : `${to}/ is not in a layer below ${from}/`);
      if (why) wrong.push(`${file} → ${target}: ${why}`);
    }
  }
  return wrong;
}

describe('the import graph', () => {
  const graph = readImportGraph(['server/src', 'contract', 'client/src']);

  it('reads the server, the contract and the client', () => {
    expect(graph.size).toBeGreaterThan(500);
    expect(graph.get('server/src/memberships/memberships.ts')).toContain(
      'server/src/outbox/webhook-events.ts',
    );
  });

  it('has every folder of server/src in one layer or among the edges, and no other', () => {
    const folders = readdirSync(join(root, 'server/src')).filter((name) =>
      statSync(join(root, 'server/src', name)).isDirectory(),
    );
    const placed = [...serverLayers.flat(), ...serverEdgeFolders];
    expect(folders.filter((folder) => !placed.includes(folder))).toEqual([]);
    expect(placed.filter((folder) => !existsSync(join(root, 'server/src', folder)))).toEqual([]);
    expect(placed.length).toBe(new Set(placed).size);
  });

  it('has no circle of imports', () => {
    expect(circlesOf(graph)).toEqual([]);
  });

  it('has no import that runs back up the server’s layers', () => {
    expect(wrongImports(graph, serverLayers, serverEdgeFolders)).toEqual([]);
  });

  it('fails a planted circle, an upward import, an import of an edge and of a new folder', () => {
    const planted: ImportGraph = new Map([
      ['contract/a.ts', ['contract/b.ts']],
      ['contract/b.ts', ['contract/a.ts']],
      ['server/src/memberships/x.ts', ['server/src/webhooks/webhook-store.ts']],
      ['server/src/gifts/x.ts', ['server/src/http/errors.ts']],
      ['server/src/content/x.ts', ['server/src/brand-new/y.ts']],
      ['server/src/brand-new/y.ts', ['server/src/db/transaction.ts']],
    ]);
    expect(circlesOf(planted)).toEqual([['contract/a.ts', 'contract/b.ts']]);
    expect(wrongImports(planted, serverLayers, serverEdgeFolders)).toEqual([
      'server/src/memberships/x.ts → server/src/webhooks/webhook-store.ts: webhooks/ is not in a layer below memberships/',
      'server/src/gifts/x.ts → server/src/http/errors.ts: http/ is an edge: it calls gifts/, not the other way',
      'server/src/content/x.ts → server/src/brand-new/y.ts: brand-new/ is in no layer of serverLayers',
      'server/src/brand-new/y.ts → server/src/db/transaction.ts: brand-new/ is in no layer of serverLayers',
    ]);
  });
});
