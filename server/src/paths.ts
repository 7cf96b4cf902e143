import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGES_DIR } from '../../contract/prerendered.js';
import { SITE_INDEX_FILE } from '../../contract/site-index.js';
import { NEWSLETTERS_FILE } from '../../contract/newsletters.js';

/**
 * The project root: the nearest folder above this file with a package.json, whether this runs as
 * server/src/paths.ts (development, tests) or compiled as dist/server/src/paths.js (production).
 */
function findProjectRoot(from: string): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

export const projectRoot = findProjectRoot(fileURLToPath(import.meta.url));
export const migrationsDir = join(projectRoot, 'prisma', 'migrations');
export const clientDistDir = join(projectRoot, 'dist', 'client');
/** The prerendered pages (client/build/prerender.ts). */
export const pagesDistDir = join(projectRoot, PAGES_DIR);
/** Partner perks: their public descriptions, and the server-only file of how each is redeemed. */
export const perksContentDir = join(projectRoot, 'content', 'perks');
export const perkRedemptionsFile = join(projectRoot, 'perks', 'redemptions.json');
/** What the build tells the server about the content (contract/site-index.ts). */
export const siteIndexFile = join(projectRoot, SITE_INDEX_FILE);
/** Every newsletter issue, bodies included, as the build wrote them (contract/newsletters.ts). */
export const newslettersFile = join(projectRoot, NEWSLETTERS_FILE);
