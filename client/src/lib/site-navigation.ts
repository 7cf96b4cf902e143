import { use } from 'react';
import {
  SITE_DATA_ELEMENT_ID,
  SITE_NAVIGATION_ELEMENT_ID,
  type SiteData,
} from '../../../contract/site-data';
import {
  articleSectionSlugs,
  sectionPath,
  type SiteNavigation,
  type SiteSection,
} from '../../../contract/sections';
import { categoryPath } from '../../../contract/site-paths';
import { SiteDataContext } from './site-data';

/**
 * The site's sections and links (contract/sections.ts), which the navbar, the footer and the
 * router draw. The page the server sent carries them (in its SiteData, or on their own in the
 * pages drawn only in the browser), read once before hydration so the first render draws what
 * the HTML shows. Like the site's name, they do not change while a page is open: a change made
 * meanwhile shows at the next page load.
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

/** The navigation: the server's while it renders a page, else the one the page came with. */
export function useSiteNavigation(): SiteNavigation {
  const rendering = use(SiteDataContext);
  return rendering ? (rendering.navigation ?? EMPTY) : embedded;
}

/** The section of articles an article is in, by its name (its `category`). */
export function useArticleSection(category: string): SiteSection | undefined {
  return useSiteNavigation().sections.find(
    (section) => section.lists === 'articles' && section.name === category,
  );
}

/** Where an article's section is: its slug's page (the seed's rule for a section unknown here). */
export function useArticleSectionPaths(): (category: string) => string {
  const slugs = articleSectionSlugs(useSiteNavigation().sections);
  return (category) => {
    const slug = slugs.get(category);
    return slug ? sectionPath({ slug }) : categoryPath(category);
  };
}
