import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
/** The app built for Node, with which the server draws every page (server/src/site/). */
export const ssrDistDir = join(projectRoot, 'dist', 'ssr');
/** The shipped content, imported once into a new site (server/src/plugins/app/site-content-plugin.ts). */
export const contentDir = join(projectRoot, 'content');
/** The site's stylesheet: the web manifest's colours. */
export const siteStylesheet = join(projectRoot, 'client', 'src', 'styles.css');
/** Partner perks: their public descriptions, and the server-only file of how each is redeemed. */
export const perksContentDir = join(projectRoot, 'content', 'perks');
export const perkRedemptionsFile = join(projectRoot, 'perks', 'redemptions.json');
