import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A content folder of a test's own (content/FORMAT.md), from file names and their text, for an
 * app to seed from or a command to import. `remove()` deletes it.
 */
export async function writeContentFolder(files: Record<string, string>) {
  const dir = await mkdtemp(join(tmpdir(), 'cohort-content-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A content file: front matter from an object (YAML by JSON, which YAML reads), then a body. */
export function contentFile(front: Record<string, unknown>, body = ''): string {
  const lines = Object.entries(front).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join('\n')}\n---\n${body}\n`;
}
