import { contentPages } from '../src/config/paths.js';

// PRODUCT.md decision 8: the seed's ids hold. Articles and campaigns share one id space.

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

export const seedIdsByCategory = {
  Health: range(1, 14),
  Wealth: [...range(15, 24), 29],
  'Direct Action': range(25, 28),
} as const satisfies Record<string, readonly number[]>;

export type SeededCategory = keyof typeof seedIdsByCategory;

export const boycottIds = range(1, 3);
export const resourceGroupIds = range(1, 3);

/**
 * Pages the site's screens read: the home pitch, two section intros and the Why essay, then the
 * topic pages and the policies (client/src/config/paths.ts).
 */
export const requiredPages = [
  'home',
  'collective',
  'empowerment',
  'why',
  ...contentPages.map((page) => page.slug),
] as const;

/** "1–14", "15–24, 29": how a list of ids reads in an error message. */
export function describeIds(ids: readonly number[]): string {
  const runs: string[] = [];
  let start = ids[0];
  for (let index = 1; index <= ids.length; index++) {
    const previous = ids[index - 1];
    const current = ids[index];
    if (start === undefined || previous === undefined) break;
    if (current !== previous + 1) {
      runs.push(start === previous ? `${start}` : `${start}–${previous}`);
      start = current;
    }
  }
  return runs.join(', ');
}
