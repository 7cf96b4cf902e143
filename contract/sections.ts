import type { Static } from 'typebox';
import type { SectionLists } from './section-rules.js';
import type { SectionSchema, SiteLinkSchema } from './sections-api.js';
import { paths } from './site-paths.js';

// The site's sections and navigation links (docs/publishing.md, "Sections and the menu"): the
// publisher's data, managed by owners in the desk (contract/sections-api.ts, whose limits are
// section-rules.ts's), drawn by the navbar, the footer and the router from what every page
// carries (SiteData.navigation). Types and helpers only: the public pages' bundle carries no
// schema library.

/**
 * The colours a section may have, each readable (at least 4.5:1) as text on the site's white and
 * paper backgrounds and under white text; the first five are the shipped sections'.
 */
export const SECTION_COLORS = [
  { value: '#0f6b52', name: 'Green' },
  { value: '#1f4fd1', name: 'Blue' },
  { value: '#b23a22', name: 'Red' },
  { value: '#6b3fa0', name: 'Purple' },
  { value: '#0d6a8a', name: 'Teal' },
  { value: '#a3245f', name: 'Berry' },
  { value: '#8a5a00', name: 'Ochre' },
  { value: '#4d6b16', name: 'Olive' },
  { value: '#7a4e2d', name: 'Brown' },
  { value: '#555b6e', name: 'Slate' },
] as const;
export type SectionColor = (typeof SECTION_COLORS)[number]['value'];

/** The palette's first colour no section has yet (the first one again once all are taken). */
export function freeSectionColor(taken: readonly string[]): SectionColor {
  const free = SECTION_COLORS.find((color) => !taken.includes(color.value));
  return (free ?? SECTION_COLORS[0]).value;
}

export type SiteSection = Static<typeof SectionSchema>;
export type SiteLink = Static<typeof SiteLinkSchema>;

/** What every page carries of the site's navigation: the sections in order, then the links. */
export interface SiteNavigation {
  sections: SiteSection[];
  links: SiteLink[];
}

/** A section's own page. */
export const sectionPath = (section: Pick<SiteSection, 'slug'>) => `/${section.slug}`;

/** The slug of each section of articles, by its name (an article's `category`). */
export const articleSectionSlugs = (
  sections: readonly Pick<SiteSection, 'name' | 'slug' | 'lists'>[],
): Map<string, string> =>
  new Map(sections.filter((section) => section.lists === 'articles').map((s) => [s.name, s.slug]));

/** What a section lists besides articles: each of these kinds has at most one section. */
export type SpecialList = Exclude<SectionLists, 'articles'>;

/**
 * The slug of the section that lists each of the site's special kinds (campaigns, boycotts,
 * resources), whatever the owners named it; a kind no section lists has no page (no entry).
 */
export const specialSectionSlugs = (
  sections: readonly Pick<SiteSection, 'lists' | 'slug'>[],
): Map<SpecialList, string> => {
  const slugs = new Map<SpecialList, string>();
  for (const section of sections) {
    if (section.lists !== 'articles' && !slugs.has(section.lists)) {
      slugs.set(section.lists, section.slug);
    }
  }
  return slugs;
};

/** The samples' address of each special kind's section: where it is when no one says. */
const SAMPLE_SPECIAL_PATHS: Record<SpecialList, string> = {
  campaigns: paths.directAction,
  boycotts: paths.collective,
  resources: paths.empowerment,
};

/**
 * Where a special kind's posts are listed: its section's address, or the home page when no
 * section lists the kind; without `special`, the samples' address.
 */
export function specialListPath(
  lists: SpecialList,
  special?: ReadonlyMap<SpecialList, string>,
): string {
  if (!special) return SAMPLE_SPECIAL_PATHS[lists];
  const slug = special.get(lists);
  return slug === undefined ? paths.home : `/${slug}`;
}
