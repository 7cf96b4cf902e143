// The publication's own identity and look (decision 26): its name, words, colours, fonts, home
// page and links, set by owners in the desk (GET/PATCH /api/desk/settings, the schemas in
// contract/site-settings-api.ts) and applied at run time on every page, feed, share card, mail and
// the web manifest. SITE_NAME and friends in `.env` seed them on the first start only. Types and
// constants only: the public pages' bundle carries no schema library.

/** The colour schemes a site may have: the reader's own (`auto`) follows their system. */
export const COLOR_SCHEMES = ['light', 'dark', 'auto'] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];

/**
 * The font pairings on offer, each self-hosted (served from the site, never a font service):
 * `system` is the reader's own system fonts and costs no download.
 */
export const FONT_PAIRINGS = [
  { value: 'system', name: 'System', headings: 'System sans-serif', body: 'System serif' },
  { value: 'editorial', name: 'Editorial', headings: 'Fraunces', body: 'Source Serif 4' },
  { value: 'modern', name: 'Modern', headings: 'Inter', body: 'Inter' },
  { value: 'classic', name: 'Classic', headings: 'Playfair Display', body: 'Lora' },
] as const;
export type FontPairing = (typeof FONT_PAIRINGS)[number]['value'];

/** How a list of posts is drawn: rows, a grid of cards, or a magazine front with one lead story. */
export const LIST_LAYOUTS = ['list', 'grid', 'magazine'] as const;
export type ListLayout = (typeof LIST_LAYOUTS)[number];

export const SETTINGS_LIMITS = {
  title: 80,
  description: 300,
  footerText: 500,
  signupText: 300,
  socialLinks: 10,
  socialLabel: 40,
  customCss: 50_000,
  heroHeading: 120,
  heroText: 600,
  heroButtonLabel: 40,
  featuredPosts: 6,
} as const;

export interface SocialLink {
  label: string;
  /** An absolute http(s) address. */
  url: string;
}

/** The home page's opening: a heading, its text and one button, or none at all (`hero: null`). */
export interface HomeHero {
  heading: string;
  text: string;
  /** The button's words and where it goes (a path on the site or an http(s) address); null: no button. */
  button: { label: string; href: string } | null;
}

/**
 * The home page (docs/publishing.md, "The home page"): its hero, the sections it lists and in what
 * order, the articles pinned above them, and how its lists are drawn. A change names slugs and
 * ids that exist (else a 400); what changes later (a section renamed or deleted, a post taken
 * down) is followed or skipped when the page is drawn.
 */
export interface HomeSettings {
  hero: HomeHero | null;
  /**
   * Slugs of the sections listed below the featured articles, in this order. `null`: a site that
   * never chose, every section in the menu in the menu's order (new ones included); `[]`: none.
   */
  sections: string[] | null;
  /**
   * Ids of pinned articles, shown first ("Featured") in this order (at most
   * SETTINGS_LIMITS.featuredPosts); each also leaves its section's row on the home page.
   */
  featured: number[];
  /** How the home page's lists are drawn; the magazine's lead story is the first one shown. */
  layout: ListLayout;
}

/** Everything a reader's page may know of the settings: all of them are public. */
export interface SiteSettings {
  title: string;
  /** The tagline: the home page's and the feed's description, the share cards'. */
  description: string;
  /** A BCP 47 language tag: the pages' `lang`, the feed's `<language>`. */
  language: string;
  /** An IANA time zone: how dates are shown and newsletters scheduled. */
  timezone: string;
  /** Upload addresses (`/uploads/…`), or null for none. */
  logo: string | null;
  /** The square image the favicon and the app icons are made from. */
  icon: string | null;
  coverImage: string | null;
  /** `#rrggbb`. */
  accentColor: string;
  footerText: string;
  /** The newsletter box's words. */
  signupText: string;
  socialLinks: SocialLink[];
  colorScheme: ColorScheme;
  fonts: FontPairing;
  /** The owners' own CSS, served as a stylesheet after the site's (no script; the CSP stands). */
  customCss: string;
  home: HomeSettings;
}

/**
 * The newsletter box's words when the settings have none (`signupText` empty): nothing the site may
 * not do (no "no tracking": issues carry an open pixel where NEWSLETTER_TRACKING is on).
 */
export const DEFAULT_SIGNUP_TEXT = 'New posts by email. Unsubscribe in one click.';

/** Where the owners' CSS is served; `?v=<hash>` makes each version its own address. */
export const CUSTOM_CSS_PATH = '/site/custom.css';
