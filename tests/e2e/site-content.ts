import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const contentDir = fileURLToPath(new URL('../../content/', import.meta.url));

/** The front matter of every file in one content folder, as the tests' source of truth. */
export function readFrontMatter<T>(folder: string): T[] {
  const dir = `${contentDir}${folder}/`;
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => parse(readFileSync(dir + name, 'utf8').split(/^---$/m)[1] ?? '') as T);
}

export interface ListedItem {
  id: number;
  slug: string;
  category: string;
  title: string;
  externalLink?: string;
}

/** Titles of one section's items, newest (highest id) first. */
export function newestFirst(folder: string, category: string): ListedItem[] {
  return readFrontMatter<ListedItem>(folder)
    .filter((item) => item.category === category)
    .sort((a, b) => b.id - a.id);
}
