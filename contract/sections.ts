import type { Static } from 'typebox';
import type { SectionSchema, SiteLinkSchema } from './sections-api.js';

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
export const articleSectionSlugs = (sections: readonly SiteSection[]): Map<string, string> =>
  new Map(sections.filter((section) => section.lists === 'articles').map((s) => [s.name, s.slug]));
