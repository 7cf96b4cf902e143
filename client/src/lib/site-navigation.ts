import { use, type CSSProperties } from 'react';
import {
  SITE_DATA_ELEMENT_ID,
  SITE_NAVIGATION_ELEMENT_ID,
  type SiteData,
} from '../../../contract/site-data';
import type { SectionLists } from '../../../contract/section-rules';
import {
  articleSectionSlugs,
  sectionPath,
  specialListPath,
  specialSectionSlugs,
  type SiteNavigation,
  type SiteSection,
  type SpecialList,
} from '../../../contract/sections';

import { categoryPath } from '../../../contract/site-paths';
import { useKeptNavigation } from './navigation-store';
import { SiteDataContext } from './site-data';

/**
 * The site's sections and links (contract/sections.ts), which the navbar, the footer and the
 * router draw. The page the server sent carries them (in its SiteData, or on their own in the
 * pages drawn only in the browser), read once before hydration so the first render draws what
 * the HTML shows. Each screen the reader moves to brings them again (navigation-store.ts): a
 * change made meanwhile shows at the next move.
 */
const EMPTY: SiteNavigation = { sections: [], links: [] };
const embedded: SiteNavigation = readEmbedded();

function readEmbedded(): SiteNavigation {
  if (typeof document === 'undefined') return EMPTY;
  const data = document.getElementById(SITE_DATA_ELEMENT_ID)?.textContent;
  const navigation = data ? (JSON.parse(data) as SiteData).navigation : undefined;
  if (navigation) return navigation;
  const own = document.getElementById(SITE_NAVIGATION_ELEMENT_ID)?.textContent;
  return own ? (JSON.parse(own) as SiteNavigation) : EMPTY;
}

/** The navigation: the server's while it renders a page, else the newest the browser has. */
export function useSiteNavigation(): SiteNavigation {
  const rendering = use(SiteDataContext);
  const kept = useKeptNavigation(embedded);
  return rendering ? (rendering.navigation ?? EMPTY) : kept;
}

/** The section of articles an article is in, by its name (its `category`). */
export function useArticleSection(category: string): SiteSection | undefined {
  return useSiteNavigation().sections.find(
    (section) => section.lists === 'articles' && section.name === category,
  );
}

/**
 * The colour the site draws a section's things in: the section of articles named `category`,
 * or the one section listing the site's campaigns, boycotts or resources.
 */
export function useSectionColor(lists: SectionLists, category?: string): string | undefined {
  return useSiteNavigation().sections.find(
    (section) => section.lists === lists && (lists !== 'articles' || section.name === category),
  )?.color;
}

/** Where an article's section is: its slug's page (the seed's rule for a section unknown here). */
export function useArticleSectionPaths(): (category: string) => string {
  const slugs = articleSectionSlugs(useSiteNavigation().sections);
  return (category) => {
    const slug = slugs.get(category);
    return slug ? sectionPath({ slug }) : categoryPath(category);
  };
}

/**
 * Where a special kind's posts are listed: its section's address, whatever the owners named it
 * (the home page when no section lists the kind).
 */
export function useSpecialListPath(lists: SpecialList): string {
  return specialListPath(lists, specialSectionSlugs(useSiteNavigation().sections));
}

/** A section's colour as the `--tone` its cards, headings and rules are drawn in (styles.css). */
export const toneStyle = (color: string | undefined): CSSProperties | undefined =>
  color ? ({ '--tone': color } as CSSProperties) : undefined;
