// The site's name in prerendered pages. Its own module without TypeBox, because the browser's
// entry imports it (contract/prerendered.ts declares schemas that would come along).

/**
 * The site's name as the build writes it into HTML text and attributes (titles, the navbar, the
 * footer, `og:site_name`), replaced at start by SITE_NAME, HTML-escaped. Letters and underscores
 * only, so that no escaping on the way (React's, the prerender's) changes it.
 */
export const PRERENDER_SITE_NAME = '__COHORT_SITE_NAME__';
/** The same inside JSON-LD scripts, replaced by SITE_NAME escaped for a JSON string in a <script>. */
export const PRERENDER_SITE_NAME_IN_JSON = '__COHORT_SITE_NAME_JSON__';
/**
 * The meta tag every page carries with the site's name (index.html): the browser reads the name
 * from the page it hydrates, so its first render says what the server's HTML says.
 */
export const SITE_NAME_META = 'application-name';
