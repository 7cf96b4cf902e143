import type { SiteSettings } from '../../../contract/site-settings';
import { keptValue } from './kept-value';

/**
 * The publication's settings the browser holds (contract/site-settings.ts): the page's own (kept
 * before hydration, site-data.ts), replaced by each newer one a GET /api/site-data answer brings.
 * A change redraws what reads them and puts the new look on the page (site-look.ts, loaded then:
 * the first load has no use for it).
 */
const settings = keptValue<SiteSettings>((next, previous) => {
  void import('./site-look').then(({ applyLook }) => applyLook(next, previous));
});

export const keepSiteSettings = settings.keep;
export const useKeptSiteSettings = settings.useKept;
