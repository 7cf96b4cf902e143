import type { HomeSettings } from '../../../contract/site-settings.js';
import type { SiteSection } from '../../../contract/sections.js';
import type { Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';

/**
 * The home page's settings (contract/site-settings.ts HomeSettings): a change may name only
 * sections and published articles there are now; what changes afterwards (a section renamed or
 * deleted, an article taken down) is followed or left out when the page is drawn, never an error.
 */

/**
 * Refuses a home page naming a section no section has for slug, or pinning what is not a
 * published article, naming each (400 invalid_settings).
 */
export async function requireKnownHomeParts(tx: Tx, home: HomeSettings | undefined) {
  if (!home) return;
  const problems: string[] = [];
  const slugs = home.sections ?? [];
  if (slugs.length > 0) {
    const { rows } = await tx.query<{ slug: string }>(
      `SELECT "slug" FROM "sections" WHERE "slug" = ANY($1::text[])`,
      [slugs],
    );
    const known = new Set(rows.map((row) => row.slug));
    const unknown = slugs.filter((slug) => !known.has(slug));
    if (unknown.length > 0) {
      problems.push(`home.sections names no section: ${unknown.join(', ')}`);
    }
  }
  if (home.featured.length > 0) {
    const { rows } = await tx.query<{ id: number }>(
      `SELECT "id" FROM "posts"
        WHERE "id" = ANY($1::int[]) AND "kind" = 'article' AND "deletedAt" IS NULL
          AND "status" IN ('published', 'scheduled') AND "publishedAt" <= now()`,
      [home.featured],
    );
    const live = new Set(rows.map((row) => row.id));
    const others = home.featured.filter((id) => !live.has(id));
    if (others.length > 0) {
      problems.push(`home.featured pins what is not a published article: ${others.join(', ')}`);
    }
  }
  if (problems.length > 0) {
    throw new DomainError(400, 'invalid_settings', `Invalid settings: ${problems.join('; ')}.`);
  }
}

/**
 * The sections the home page lists, in order: every one in the menu when the owners never chose,
 * else those they chose, a renamed one by its old slug, a deleted one left out.
 */
export function homeSectionSlugs(
  home: Pick<HomeSettings, 'sections'>,
  sections: readonly SiteSection[],
  oldSlugs: ReadonlyMap<string, string>,
): string[] {
  if (home.sections === null) {
    return sections.filter((section) => section.inMenu).map((section) => section.slug);
  }
  const known = new Set(sections.map((section) => section.slug));
  const shown = home.sections
    .map((slug) => (known.has(slug) ? slug : oldSlugs.get(slug)))
    .filter((slug): slug is string => slug !== undefined && known.has(slug));
  return [...new Set(shown)];
}
