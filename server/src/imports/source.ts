// What an export from another platform holds, once read: the one shape every reader
// (ghost.ts, wordpress.ts, substack.ts, medium.ts, members-csv.ts) hands to the writers
// (import-posts.ts, import-members.ts). Readers parse and never touch the database; writers
// never know which platform a file came from.
import type { PostKind } from '../../../contract/posts.js';
import type { PostVisibility } from '../../../contract/reading.js';

/** The platforms `npm run import -- <source>` reads. */
export const IMPORT_SOURCES = ['ghost', 'wordpress', 'substack', 'medium', 'members'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** Something in the file that was not imported, and why (the report's `skipped` lists). */
export interface Skipped {
  /** What it is, as a publisher would recognise it: a post's title or slug, a member's email. */
  item: string;
  reason: string;
}

/** Which platform's habits the HTML converter should know (shortcodes, widgets, cards). */
export type HtmlFlavour = 'ghost' | 'wordpress' | 'substack' | 'medium';

export interface SourceAuthor {
  name: string;
  slug?: string;
  email?: string;
}

/** An image the post names (its feature image): a URL as the export gives it. */
export interface SourceImage {
  url: string;
  alt?: string;
  caption?: string;
}

export interface SourcePost {
  /** The platform's own id, stable across exports of the same site: what a second run matches. */
  sourceId: string;
  /** A page (about, contact…) or a post. */
  type: 'post' | 'page';
  /** As the platform had it; the writer cleans it (control and invisible characters removed). */
  slug: string;
  title: string;
  /** The body as HTML, already rendered from mobiledoc or lexical where the platform stored those. */
  html: string;
  flavour: HtmlFlavour;
  /** The platform's excerpt, if it kept one (plain text). */
  excerpt?: string;
  status: 'published' | 'draft' | 'scheduled';
  /** When it was (or is to be) published; absent for a draft that never was. */
  publishedAt?: Date;
  updatedAt?: Date;
  authors: SourceAuthor[];
  /** Tag and category names, in the platform's order (internal tags such as Ghost's `#hash` left out). */
  tags: string[];
  featureImage?: SourceImage;
  /**
   * Who may read it here (contract/reading.ts), as the reader mapped the platform's word: free
   * members' posts `registered`, paying members' `members`, a tier's `tiers`; a word the reader
   * does not know `members` (failing closed, with an `accessNote`).
   */
  visibility: PostVisibility;
  /** With visibility `tiers`: the slugs of the export's tiers (`SourceBundle.tiers`) it names. */
  tiers: string[];
  /** Why it is for members when the platform did not plainly say so (an audience it does not know). */
  accessNote?: string;
  seoTitle?: string;
  seoDescription?: string;
  /**
   * Every address the post answered at on the old site, as paths (`/write/`, `/?p=1178`,
   * `/p/my-post`, `/2013/01/11/slug/`), or absolute URLs the writer reduces to their path.
   */
  oldPaths: string[];
  /** Comments the platform exported for it (WordPress), spam and binned ones left out. */
  comments: number;
  /**
   * Those of its comments that were on its page (WordPress's approved ones, pingbacks and
   * trackbacks left out), which the import brings as guests' comments.
   */
  approvedComments?: SourceComment[];
  /**
   * What a Cohort export says of it besides Ghost's words (its `cohort` block, ghost-cohort.ts):
   * its kind and that kind's fields (section, summary, a boycott's updates…), as that site kept them.
   */
  cohort?: { kind: PostKind; fields: Record<string, unknown> };
}

/** A section of the site a Cohort export came from (its `cohort` block): made here when missing. */
export interface SourceSection {
  name: string;
  slug: string;
  description: string;
  /** What it lists: articles, or one of the special kinds. */
  lists: 'articles' | 'campaigns' | 'boycotts' | 'resources';
  /** `#rrggbb`, one of the palette's. */
  color?: string;
  inMenu: boolean;
}

/** A reader's comment on a post, as the platform exported it. */
export interface SourceComment {
  /** The platform's id of it, unique in the export. */
  sourceId: string;
  /** The id of the comment it answers; null for a comment on the post itself. */
  parentSourceId: string | null;
  authorName: string;
  createdAt: Date;
  /** Its text as the platform stored it (WordPress: HTML with its own line breaks). */
  html: string;
}

/** A comp (complimentary membership): until `until`, or with no end. */
export interface SourceComp {
  until: Date | null;
}

export interface SourceMember {
  /** As the file has it; the writer trims and lower-cases it. */
  email: string;
  name?: string;
  note?: string;
  /** Newsletter consent as the file says it. */
  subscribed: boolean;
  comp?: SourceComp;
  stripeCustomerId?: string;
  createdAt?: Date;
  labels: string[];
}

/** A tier the export sells (Ghost's `products`, Substack's founding members), as it describes it. */
export interface SourceTier {
  /** As the platform had it: what posts' `tiers` name. */
  slug: string;
  name: string;
  description: string;
  benefits: string[];
  /** Its prices in `currency`'s cents; null: the export gives none (the tier is not sold here). */
  prices: { monthly: number | null; yearly: number | null };
  /** Lower-case ISO code, when the export says. */
  currency?: string;
  /** Offered to readers on the platform (Ghost's archived and hidden tiers are not). */
  visible: boolean;
}

/** A file in the export (Ghost's zip `content/images/…`): read only when a post needs it. */
export interface SourceFile {
  /** Its path in the export, with `/` separators and no leading slash. */
  path: string;
  size: number;
  read(): Promise<Buffer>;
}

export interface SourceBundle {
  source: ImportSource;
  posts: SourcePost[];
  /** The tiers its posts name, and the others it sells (none from WordPress and Medium). */
  tiers: SourceTier[];
  members: SourceMember[];
  /**
   * Files that came with the export, by the site path they were served at (`/content/images/2021/03/a.jpg`):
   * an image URL whose path is one of these is taken from here, not fetched.
   */
  files: Map<string, SourceFile>;
  /** What the reader left out, with why (an attachment item, an unknown post type…). */
  skipped: Skipped[];
  /** The export's own site address, when it says (`<link>` in WXR, Ghost's `url` setting). */
  siteUrl?: string;
  /**
   * WordPress's attachments by their post id: what a `[gallery ids="…"]` shortcode and a
   * featured image (`_thumbnail_id`) name. Empty for the other platforms.
   */
  attachments: Map<string, SourceImage>;
  /** Comments in the export (WordPress's, Ghost's), spam, binned and hidden ones left out. */
  comments: number;
  /** The sections a Cohort export's posts are in (its `cohort` block); none from elsewhere. */
  sections?: SourceSection[];
  /** The publisher's redirects file a Ghost export zip or folder holds (import-redirects.ts). */
  redirects?: SourceRedirects;
}

/** A redirects file found in an export (Ghost's `redirects.json` or `redirects.yaml`), as text. */
export interface SourceRedirects {
  /** Its path in the export, as the report names it. */
  name: string;
  format: 'json' | 'yaml';
  file: string;
}

/** A file that cannot be imported at all: nothing is written, and this says what and where. */
export class ImportFileError extends Error {
  constructor(
    message: string,
    /** Where in the file, when known: `line 12, column 4`, `posts.csv row 7`. */
    readonly where?: string,
  ) {
    super(where ? `${message} (${where})` : message);
    this.name = 'ImportFileError';
  }
}

/** The counts the report gives for posts, pages and members. */
export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
  skipped: Skipped[];
}

/** A post still showing images from elsewhere: each address once, the feature image's too. */
export interface PostMissingImages {
  id: number;
  kind: string;
  slug: string;
  title: string;
  urls: string[];
}

/** The images posts still show from another site's address (missing-images.ts). */
export interface MissingImages {
  /** The addresses still pointed at, each counted once however many posts show it. */
  count: number;
  posts: PostMissingImages[];
}

/** What an import did (or, with `--dry-run`, would do): `--json` prints it, the desk shows it. */
export interface ImportReport {
  source: ImportSource;
  dryRun: boolean;
  posts: ImportCounts;
  pages: ImportCounts;
  members: ImportCounts;
  /** Posts imported as drafts, and as scheduled. */
  drafts: number;
  scheduled: number;
  /** Topics created (tags new to the site). */
  topics: number;
  /** Old addresses now answering 301 to the imported posts. */
  redirects: number;
  images: {
    stored: number;
    notFetched: { url: string; reason: string }[];
    /**
     * After the run, the images posts still show from another site's address, counted from the
     * posts (missing-images.ts): this run's and an earlier one's that a retry could not fetch.
     */
    missing?: MissingImages;
  };
  /** Stripe prices members pay that are not the site's plans nor mapped with `--price`. */
  unmappedPrices: string[];
  /**
   * The file's comments: `imported`, those now on the site as guests' comments (this run's and an
   * earlier one's); `skipped`, the rest (held for approval, pingbacks, on a post not imported).
   */
  comments: { imported: number; skipped: number };
  /**
   * What was changed on the way in, one line each: where the posts were placed, a tag shortened
   * or dropped, a title cut, what the converter removed from a post (a script, an iframe).
   */
  notes: string[];
  /** Seconds from start to end. */
  seconds: number;
}
