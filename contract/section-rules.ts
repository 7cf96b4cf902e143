// What a section and a link may be (docs/publishing.md, "Sections and the menu"): the limits the
// desk's schemas are built from (sections-api.ts) and its forms keep to. No schema library here,
// nor in sections.ts: the public pages' bundle carries none.

/**
 * What a section lists: articles (any number of sections), or one of the site's special kinds,
 * each in at most one section whose screen is built for it (`campaigns`, `boycotts`,
 * `resources`: the samples' Direct Action, Collective Action and Empowerment). Any section may be
 * renamed, moved to another address or deleted; a kind no section lists has no page.
 */
export const SECTION_LISTS = ['articles', 'campaigns', 'boycotts', 'resources'] as const;
export type SectionLists = (typeof SECTION_LISTS)[number];

export const MAX_SECTION_NAME = 40;
export const MAX_SECTION_DESCRIPTION = 300;
export const MAX_LINK_LABEL = 40;
export const MAX_LINK_ADDRESS = 300;

/** Lower-case words joined by hyphens: a section's address is `/<slug>`. */
export const SECTION_SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

export const LINK_PLACEMENTS = ['navbar', 'footer'] as const;
export type LinkPlacement = (typeof LINK_PLACEMENTS)[number];
