import type { SpecialList } from './sections.js';
import { isSectionScreen, pathInSection, SCREENS, screenLists, type Screen } from './screens.js';

// Which screen of the table (contract/screens.ts) a path is, ranked as react-router ranks the
// client's routes (its `computeScore`: a static segment 10, a `:param` 3, the empty one 1, a
// splat −2, plus the number of segments; the table's order breaks a tie), so the server draws the
// screen the browser's router will show. client/src/app/screens.test.tsx holds the two together.
// Unlike the browser's router, the path is read as sent: not decoded, case and all.

export interface ScreenMatch {
  screen: Screen;
  /**
   * The path's values for the pattern's `:name`s, as sent; `section` is the section of articles'
   * name (an article's `category`), not its slug.
   */
  params: Record<string, string>;
}

interface Pattern {
  screen: Screen;
  /** The pattern's segments after the leading `/`, without a final `*`. */
  segments: string[];
  splat: boolean;
  score: number;
  section?: string;
}

const isParam = (segment: string) => /^:[\w-]+$/.test(segment);

/** react-router's `computeScore` for a path of its syntax. */
function scoreOf(path: string): number {
  const segments = path.split('/');
  const splat = segments.includes('*');
  return segments
    .filter((segment) => segment !== '*')
    .reduce(
      (score, segment) => score + (isParam(segment) ? 3 : segment === '' ? 1 : 10),
      segments.length + (splat ? -2 : 0),
    );
}

/** A path with an optional segment (`/newsletter/:slug?`) is two: without it, then with it. */
function explode(path: string): string[] {
  const segments = path.split('/');
  const last = segments.at(-1) ?? '';
  if (!last.endsWith('?')) return [path];
  const without = segments.slice(0, -1).join('/') || '/';
  return [without, [...segments.slice(0, -1), last.slice(0, -1)].join('/')];
}

function patternsOf(screen: Screen, path: string, section?: string): Pattern[] {
  return explode(path).map((each) => {
    const segments = each.split('/').slice(1);
    const splat = segments.at(-1) === '*';
    return {
      screen,
      segments: splat ? segments.slice(0, -1) : segments,
      splat,
      score: scoreOf(each),
      ...(section !== undefined && { section }),
    };
  });
}

/**
 * Every row's patterns, best first, for these sections of articles (name → slug) and these
 * sections of the special kinds (kind → slug).
 */
const ranked = new WeakMap<
  ReadonlyMap<string, string>,
  WeakMap<ReadonlyMap<SpecialList, string>, Pattern[]>
>();
function patternsFor(
  sections: ReadonlyMap<string, string>,
  special: ReadonlyMap<SpecialList, string>,
): Pattern[] {
  let bySpecial = ranked.get(sections);
  if (!bySpecial) ranked.set(sections, (bySpecial = new WeakMap()));
  let patterns = bySpecial.get(special);
  if (!patterns) {
    patterns = SCREENS.flatMap((screen: Screen) => {
      if (!isSectionScreen(screen)) return patternsOf(screen, screen.path);
      const lists = screenLists(screen);
      if (lists === 'articles') {
        return [...sections].flatMap(([name, slug]) =>
          patternsOf(screen, pathInSection(screen.path, slug), name),
        );
      }
      const slug = special.get(lists);
      return slug === undefined ? [] : patternsOf(screen, pathInSection(screen.path, slug));
    });
    // A stable sort: the table's order among equals.
    patterns.sort((a, b) => b.score - a.score);
    bySpecial.set(special, patterns);
  }
  return patterns;
}

function matchPattern(pattern: Pattern, segments: string[]): Record<string, string> | null {
  const { segments: expected, splat } = pattern;
  if (splat ? segments.length < expected.length : segments.length !== expected.length) {
    return null;
  }
  const params: Record<string, string> = {};
  for (const [index, want] of expected.entries()) {
    const given = segments[index] ?? '';
    if (isParam(want)) {
      if (given === '') return null;
      params[want.slice(1)] = given;
    } else if (want !== given) {
      return null;
    }
  }
  return params;
}

/**
 * The screen at `path` (a pathname: no query) and its parameters, or null when no screen is
 * there (the not-found page). `sections`: each section of articles' slug by its name;
 * `special`: the slug of the section listing each special kind (contract/sections.ts
 * specialSectionSlugs), whose screen is there.
 */
export function matchScreen(
  path: string,
  sections: ReadonlyMap<string, string>,
  special: ReadonlyMap<SpecialList, string>,
): ScreenMatch | null {
  if (!path.startsWith('/')) return null;
  const segments = path.split('/').slice(1);
  for (const pattern of patternsFor(sections, special)) {
    const params = matchPattern(pattern, segments);
    if (!params) continue;
    if (pattern.section !== undefined) params.section = pattern.section;
    return { screen: pattern.screen, params };
  }
  return null;
}
