import { useSiteSettings } from './site-settings';

/**
 * The site's name: its settings' title (site-settings.ts), as the server drew it into the page
 * being hydrated, so the first render says exactly what the HTML says; a title changed in the
 * desk shows at the reader's next move.
 */
export const useSiteName = (): string => useSiteSettings().title;
