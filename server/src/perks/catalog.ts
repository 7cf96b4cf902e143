import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  perkSchema,
  redemptionsSchema,
  type RedemptionRule,
} from '../../../contract/perk-schema.js';
import type { Perk } from '../../../contract/perks.js';
import { readBySchema } from '../../../contract/schema-problems.js';
import { splitFrontMatter } from '../../../contract/split-front-matter.js';

export interface CatalogPerk extends Perk {
  redemption: RedemptionRule;
}

export interface PerkCatalog {
  find(id: string): CatalogPerk | undefined;
  all(): readonly CatalogPerk[];
}

export class PerkCatalogError extends Error {
  override name = 'PerkCatalogError';
  constructor(readonly problems: string[]) {
    super(`The partner perks are not valid:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

/**
 * Reads content/perks/*.md (what everyone may see) and perks/redemptions.json (how each is
 * redeemed: server-only, never bundled) and checks that they agree. Throws a PerkCatalogError
 * naming every problem: the server refuses to start with perks it could not honour.
 */
export async function readPerkCatalog(paths: {
  contentDir: string;
  redemptionsFile: string;
}): Promise<PerkCatalog> {
  const problems: string[] = [];
  const names = (await readdir(paths.contentDir).catch(() => []))
    .filter((name) => name.endsWith('.md'))
    .sort();
  const perks: Perk[] = [];
  for (const name of names) {
    const file = `content/perks/${name}`;
    const split = splitFrontMatter(await readFile(join(paths.contentDir, name), 'utf8'));
    if (!split.ok) {
      problems.push(`${file}: ${split.message}`);
      continue;
    }
    const perk = readBySchema(perkSchema, split.frontMatter ?? {}, { whole: 'front matter' });
    if (!perk.ok) {
      for (const { field, message } of perk.problems)
        problems.push(`${file}: ${field}: ${message}`);
      continue;
    }
    if (perk.value.id !== basename(name, '.md')) {
      problems.push(`${file}: id: "${perk.value.id}" must equal the file name`);
    }
    if (split.body.trim() !== '') problems.push(`${file}: body: must be empty (front matter only)`);
    perks.push(perk.value);
  }

  let rules: Record<string, RedemptionRule> = {};
  try {
    const read = readBySchema(
      redemptionsSchema,
      JSON.parse(await readFile(paths.redemptionsFile, 'utf8')),
      { whole: '' },
    );
    if (read.ok) rules = read.value;
    else {
      for (const { field, message } of read.problems) {
        problems.push(`perks/redemptions.json: ${field}: ${message}`);
      }
    }
  } catch (error) {
    if (perks.length > 0 || (error as NodeJS.ErrnoException).code !== 'ENOENT') {
      problems.push(`perks/redemptions.json: ${error instanceof Error ? error.message : error}`);
    }
  }

  const byId = new Map<string, CatalogPerk>();
  for (const perk of perks) {
    const redemption = rules[perk.id];
    if (!redemption) {
      problems.push(`perks/redemptions.json: ${perk.id}: is missing (how is this perk redeemed?)`);
    } else byId.set(perk.id, { ...perk, redemption });
  }
  for (const id of Object.keys(rules)) {
    if (!perks.some((perk) => perk.id === id)) {
      problems.push(`perks/redemptions.json: ${id}: names no perk in content/perks/`);
    }
  }
  if (problems.length > 0) throw new PerkCatalogError(problems);
  return { find: (id) => byId.get(id), all: () => [...byId.values()] };
}
