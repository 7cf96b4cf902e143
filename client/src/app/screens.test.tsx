import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { matchScreen } from '../../../contract/screen-match';
import { SCREENS } from '../../../contract/screens';
import {
  articleSectionSlugs,
  specialSectionSlugs,
  type SiteSection,
} from '../../../contract/sections';
import { appRoutes, type DeskMark } from './screens';

// The client's router is built from the screens table (contract/screens.ts): every row has its
// route, and for any address the router shows the screen the server matched and drew
// (contract/screen-match.ts), sections of articles included wherever the publisher put them.

const section = (id: number, name: string, slug: string, lists: SiteSection['lists']) => ({
  id,
  name,
  slug,
  lists,
  description: '',
  position: id,
  inMenu: true,
  color: '#0f6b52',
});
const SECTIONS: SiteSection[] = [
  section(1, 'Health', 'health', 'articles'),
  section(2, 'Money Matters', 'money-matters', 'articles'),
  section(3, 'Direct Action', 'direct-action', 'campaigns'),
  // Renamed by their owners: their screens are where their sections are.
  section(4, 'Together', 'together', 'boycotts'),
  section(5, 'Learn', 'learn', 'resources'),
];

/** The screen each address of the app's routes shows, by its name; undefined: none of the table. */
function screenShown(path: string, desk: DeskMark = 'desk', sections = SECTIONS) {
  const matched = matchRoutes(appRoutes(sections, desk), path);
  return matched?.at(-1)?.route.handle as string | undefined;
}

/** Addresses for a route's path: its parameters filled, an optional one or a splat without. */
function addressesOf(path: string): string[] {
  const segments = path.split('/');
  const last = segments.at(-1) ?? '';
  const fill = (segment: string) =>
    segment === '*' ? 'members/7' : segment.startsWith(':') ? 'a-slug' : segment;
  const whole = segments.map(fill).join('/');
  return last === '*' || last.endsWith('?') ? [whole, segments.slice(0, -1).join('/')] : [whole];
}

describe('the app’s routes', () => {
  const routes = appRoutes(SECTIONS, 'desk');
  const flat = routes.flatMap((route) => [route, ...(route.children ?? [])]);

  it('route every screen of the table to its component, once per section of articles', () => {
    for (const screen of SCREENS) {
      const mine = flat.filter((route) => route.handle === screen.name);
      expect(mine.length, screen.name).toBeGreaterThan(0);
      for (const route of mine) expect(route.element, screen.name).toBeTruthy();
    }
    const articleLists = flat.filter((route) => route.handle === 'articleList');
    expect(articleLists.map((route) => route.path)).toEqual(['/health', '/money-matters']);
    const special = ['directAction', 'collective', 'empowerment'];
    expect(special.map((name) => flat.find((route) => route.handle === name)?.path)).toEqual([
      '/direct-action',
      '/together',
      '/learn',
    ]);
  });

  it('route a special kind no section lists nowhere: its samples’ address is any page’s', () => {
    const without = SECTIONS.filter((each) => each.lists !== 'boycotts');
    expect(screenShown('/together', 'desk', without)).toBe('page');
    expect(screenShown('/collective', 'desk', without)).toBe('page');
    expect(screenShown('/learn', 'desk', without)).toBe('empowerment');
    expect(
      matchScreen('/together', articleSectionSlugs(without), specialSectionSlugs(without)),
    ).toMatchObject({ screen: { name: 'page' } });
  });

  it('show the screen the server matched, at every address of every route', () => {
    const sections = articleSectionSlugs(SECTIONS);
    const special = specialSectionSlugs(SECTIONS);
    const addresses = [
      // The old addresses that redirect are the server's before any screen: not the table's.
      ...flat.flatMap((route) => (route.handle && route.path ? addressesOf(route.path) : [])),
      '/nowhere/at/all',
      '/topics/a/b',
      '/health/a/b',
      '/newsletter/a/b',
    ];
    for (const address of addresses) {
      expect(screenShown(address), address).toBe(
        matchScreen(address, sections, special)?.screen.name,
      );
    }
  });

  it('draw the desk only in the page the server marked for staff', () => {
    expect(screenShown('/desk/members', 'desk')).toBe('desk');
    expect(screenShown('/desk', 'verify-address')).toBe('desk');
    // To anyone else the server sent the not-found page there, which hydrates as that.
    expect(screenShown('/desk', null)).toBe('page');
    expect(screenShown('/desk/members', null)).toBeUndefined();
  });
});
