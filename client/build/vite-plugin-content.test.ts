import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type Rolldown } from 'vite';
import { contentPlugin } from './vite-plugin-content.js';

const siteContentDir = fileURLToPath(new URL('../../content', import.meta.url));

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cohort-build-'));
  await writeFile(
    join(root, 'entry.js'),
    "import { articles, articleBodies } from 'virtual:content/articles';\n" +
      'globalThis.content = { articles, loadBody: (slug) => articleBodies[slug]() };\n',
  );
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function buildWith(contentDir: string): Promise<Rolldown.RolldownOutput> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    root,
    plugins: [contentPlugin({ contentDir })],
    build: { write: false, rolldownOptions: { input: join(root, 'entry.js') } },
  });
  if (Array.isArray(output) || !('output' in output)) throw new Error('expected one build output');
  return output;
}

describe('the content plugin in a Vite build', () => {
  it('puts each article body in a chunk of its own and emits the hero artwork', async () => {
    const { output } = await buildWith(siteContentDir);
    const chunks = output.filter((item) => item.type === 'chunk');
    const bodyChunks = chunks.filter((chunk) =>
      chunk.facadeModuleId?.startsWith('\0virtual:content/article-body/'),
    );
    expect(bodyChunks).toHaveLength(25);
    const entry = chunks.find((chunk) => chunk.isEntry);
    expect(entry?.code).toContain('Doomscrolling Detox');
    expect(entry?.code).not.toContain('You know the pattern');

    const artwork = output.filter(
      (item) => item.type === 'asset' && /^assets\/art\/.+-[0-9a-f]{10}\.svg$/.test(item.fileName),
    );
    // 25 articles, 4 campaigns, 3 boycotts and 17 resources.
    expect(artwork).toHaveLength(49);
  });

  it('fails the build, naming the file and the field, when a content file is wrong', async () => {
    const broken = join(root, 'content');
    await cp(siteContentDir, broken, { recursive: true });
    const file = join(broken, 'articles', 'sleep-debt-reset.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^summary: .*\n/m, ''));

    await expect(buildWith(broken)).rejects.toThrow(
      'content/articles/sleep-debt-reset.md: summary: is required',
    );
  });
});
