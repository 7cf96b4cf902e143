/**
 * The sites the browser tests run, one Playwright project each (playwright.config.ts). A worker
 * runs one site (a server process, its database, about 20 s to start on a busy machine) for
 * every spec of its project, so the options live here, not in the specs. Specs that share a site
 * share its database: each makes its own accounts and posts.
 */

/** What a worker's site is: the worker options `tests/e2e/fixtures.ts` reads. */
export interface SiteOptions {
  /** Extra environment for the site's server. */
  siteEnv?: Record<string, string>;
  /** The site's host name (127.0.0.1 unless set; passkeys need a name: `localhost`). */
  siteHostname?: string;
  /** Payments on, against a fake Stripe API. */
  payments?: boolean;
}

/** The staff of the sites with a desk (one list: the desk and paying sites share it). */
export const STAFF = {
  owner: 'owner@example.com',
  editor: 'editor@example.com',
  writer: 'writer@example.com',
  compOwner: 'comp-owner@example.com',
  membersOnlyOwner: 'members-only-owner@example.com',
  /** The owner who moderates in the comments spec. */
  commentsOwner: 'comments-owner@example.com',
  /** An owner whose address the proven-addresses spec leaves unproven, as older accounts are. */
  oldStaff: 'old-staff@proven.example',
};
const staffEnv = {
  STAFF_EMAILS: [
    STAFF.owner,
    STAFF.compOwner,
    STAFF.membersOnlyOwner,
    STAFF.commentsOwner,
    STAFF.oldStaff,
  ].join(','),
  EDITOR_EMAILS: STAFF.editor,
  WRITER_EMAILS: STAFF.writer,
};

export const SITES = {
  /** As a new site starts: payments off, no staff. */
  plain: {},
  /** The desk, payments off. */
  desk: { siteEnv: staffEnv },
  /** Payments on (a fake Stripe) and the desk; the paywall at its default delay. */
  paying: { payments: true, siteEnv: staffEnv },
  /** Payments on, and the paywall 1.5 s after an article opens. */
  paywalled: { payments: true, siteEnv: { PAYWALL_DELAY_MS: '1500' } },
  /**
   * Payments off (the paywall's delay short, to show it never comes), renamed, with a profile, and
   * staff (the desk says payments are off).
   */
  renamed: {
    siteEnv: {
      ...staffEnv,
      PAYWALL_DELAY_MS: '1500',
      SITE_NAME: 'Tidewater Press',
      SOCIAL_URL: 'https://www.instagram.com/cohort.example/',
    },
  },
  /**
   * The desk as `npm start` runs it for a developer (NODE_ENV=development): mail written to the log
   * and kept for the desk's mailbox (MAIL_TRANSPORT=log; never in production), the worker's SMTP
   * server getting nothing.
   */
  mailLog: { siteEnv: { ...staffEnv, NODE_ENV: 'development', MAIL_TRANSPORT: 'log' } },
  /** Served as http://localhost:<port>: a passkey's relying party is a host name, never an IP. */
  localhost: { siteHostname: 'localhost' },
} satisfies Record<string, SiteOptions>;
