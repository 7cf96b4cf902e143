import { Type, type Static, type TSchema } from 'typebox';
import { MembershipSchema } from './api.js';
import { UUID_PATTERN } from './constants.js';
import { TierChoiceSchema } from './tiers.js';
import type { NewsletterAudience, NewsletterReach } from './newsletters.js';

export { DESK_API } from './constants.js';

/**
 * The publisher's desk (`/desk`, `/api/desk/*`): what its client and server agree on. Everything
 * here answers 404 to anyone who is not staff (docs/decisions/0012-publishers-desk.md).
 */

const DateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A newsletter subscriber's state (the newsletter's own names: confirmed = subscribed). */
export const NewsletterStateSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('confirmed'),
  Type.Literal('unsubscribed'),
  Type.Literal('bouncing'),
]);
export type DeskNewsletterState = Static<typeof NewsletterStateSchema>;

/** A user's place on the newsletter list (their address's); null when it never signed up. */
export const DeskNewsletterSchema = Nullable(
  Type.Object({
    state: NewsletterStateSchema,
    /** When it came to that state (confirmed, unsubscribed), else when it last changed. */
    since: DateTime,
  }),
);
export type DeskNewsletter = Static<typeof DeskNewsletterSchema>;

/** GET /api/desk/me: who is at the desk, and whether they may change things now. */
export const DeskStaffSchema = Type.Object({
  email: Type.String(),
  role: Type.Union([Type.Literal('owner'), Type.Literal('editor'), Type.Literal('writer')]),
  /** An owner whose session signed in within the last 12 hours. */
  canChange: Type.Boolean(),
  /** When this session signed in (null: unknown, a session older than the desk). */
  signedInAt: Nullable(DateTime),
  /** Until when changes are allowed without signing in again (owners only). */
  changesAllowedUntil: Nullable(DateTime),
  paymentsEnabled: Type.Boolean(),
  /** The configured currency: every figure of the dashboard is in it. */
  currency: Type.String(),
  /** Mail goes to the log and is kept for the mailbox (GET /api/desk/mailbox, owners). */
  mailbox: Type.Boolean(),
});
export type DeskStaff = Static<typeof DeskStaffSchema>;

/** A mail the site would have sent, kept while mail goes to the log: GET /api/desk/mailbox. */
export interface DeskMail {
  to: string;
  subject: string;
  text: string;
  /** Null for a plain-text mail. */
  html: string | null;
  /** When it would have been sent (ISO). */
  at: string;
}

/**
 * The members list's filters. Each is one SQL condition in server/src/desk/member-filters.ts. The
 * newsletter ones look at the sign-up of the user's address, whether or not the account has
 * proved it yet (server/src/newsletter/consent.ts).
 * `paid`: access now, from any tier (`member`, its older name, means the same); `free`: an account
 * without access now.
 */
export const DESK_MEMBER_FILTERS = [
  'all',
  'paid',
  'free',
  'member',
  'expired',
  'refunded_or_disputed',
  'anonymous',
  'newsletter_subscribed',
  'newsletter_not_subscribed',
  'newsletter_pending',
  'newsletter_unsubscribed',
  'newsletter_bouncing',
] as const;
export type DeskMemberFilter = (typeof DESK_MEMBER_FILTERS)[number];

/** GET /api/desk/members and GET /api/desk/exports/members. */
export const DeskMembersQuerySchema = Type.Object(
  {
    /** An email or part of one, a user id, or a Stripe id (cus_, sub_, pi_, in_). */
    q: Type.Optional(Type.String({ maxLength: 320 })),
    filter: Type.Optional(Type.Union(DESK_MEMBER_FILTERS.map((name) => Type.Literal(name)))),
    /** A tier's slug: its members now (with `filter` too). */
    tier: Type.Optional(Type.String({ maxLength: 100 })),
    /** The `next` of the page before. */
    after: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type DeskMembersQuery = Static<typeof DeskMembersQuerySchema>;

/**
 * GET /api/desk/exports/members: the list's search and filter in Cohort's columns (`cohort`, the
 * default), or every member in the columns of Ghost's members CSV (`ghost`: a file for moving, so
 * it takes no search or filter).
 */
export const DESK_MEMBERS_EXPORT_FORMATS = ['cohort', 'ghost'] as const;
export const DeskMembersExportQuerySchema = Type.Object(
  {
    q: DeskMembersQuerySchema.properties.q,
    filter: DeskMembersQuerySchema.properties.filter,
    tier: DeskMembersQuerySchema.properties.tier,
    format: Type.Optional(
      Type.Union(DESK_MEMBERS_EXPORT_FORMATS.map((name) => Type.Literal(name))),
    ),
  },
  { additionalProperties: false },
);
export type DeskMembersExportQuery = Static<typeof DeskMembersExportQuerySchema>;

export const DeskMemberRowSchema = Type.Object({
  id: Type.String(),
  email: Nullable(Type.String()),
  createdAt: DateTime,
  isMember: Type.Boolean(),
  membership: Nullable(MembershipSchema),
  /** The slug of its membership's tier (lapsed or not); null: never a member. */
  tier: Nullable(Type.String()),
  customerIds: Type.Array(Type.String()),
  /** The newsletter state of the account's address; null: the address never signed up. */
  newsletter: Nullable(NewsletterStateSchema),
});
export type DeskMemberRow = Static<typeof DeskMemberRowSchema>;

export const DeskMembersPageSchema = Type.Object({
  members: Type.Array(DeskMemberRowSchema),
  /** Pass as `after` for the next page; null on the last one. */
  next: Nullable(Type.String()),
});
export type DeskMembersPage = Static<typeof DeskMembersPageSchema>;

export const DeskAuditEntrySchema = Type.Object({
  id: Type.String(),
  actorEmail: Type.String(),
  action: Type.String(),
  targetUserId: Nullable(Type.String()),
  before: Type.Unknown(),
  after: Type.Unknown(),
  createdAt: DateTime,
});
export type DeskAuditEntry = Static<typeof DeskAuditEntrySchema>;

export const DeskAuditPageSchema = Type.Object({
  entries: Type.Array(DeskAuditEntrySchema),
  next: Nullable(Type.String()),
});
export type DeskAuditPage = Static<typeof DeskAuditPageSchema>;

export const DeskAuditQuerySchema = Type.Object(
  { after: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$' })) },
  { additionalProperties: false },
);

/** A link into the Stripe Dashboard of the keys' mode; null when payments are off. */
const StripeUrl = Nullable(Type.String());

export const DeskLedgerEntrySchema = Type.Object({
  id: Type.String(),
  source: Type.Union([
    Type.Literal('one-time'),
    Type.Literal('subscription-invoice'),
    Type.Literal('comp'),
    Type.Literal('gift'),
    Type.Literal('sponsored'),
  ]),
  state: Type.Union([
    Type.Literal('active'),
    Type.Literal('suspended'),
    Type.Literal('refunded'),
    Type.Literal('revoked'),
  ]),
  stateReason: Nullable(Type.String()),
  amountCents: Type.Integer(),
  currency: Type.String(),
  paidAt: DateTime,
  periodStart: Nullable(DateTime),
  periodEnd: Nullable(DateTime),
  days: Nullable(Type.Integer()),
  /** Where the ledger places its time (one-time days fill what nothing else covers). */
  covers: Type.Array(Type.Object({ from: DateTime, until: DateTime })),
  subscriptionId: Nullable(Type.String()),
  paymentIntentId: Nullable(Type.String()),
  compReason: Nullable(Type.String()),
  /** The comp is running: it can be ended. */
  endable: Type.Boolean(),
  stripeUrl: StripeUrl,
});
export type DeskLedgerEntry = Static<typeof DeskLedgerEntrySchema>;

export const DeskMemberSchema = Type.Object({
  user: Type.Object({
    id: Type.String(),
    email: Nullable(Type.String()),
    createdAt: DateTime,
    isMember: Type.Boolean(),
    membership: Nullable(MembershipSchema),
    /** Anonymous ids that signed in to this account (their payments are this account's). */
    mergedIds: Type.Array(Type.String()),
    newsletter: DeskNewsletterSchema,
  }),
  ledger: Type.Array(DeskLedgerEntrySchema),
  subscriptions: Type.Array(
    Type.Object({
      id: Type.String(),
      status: Type.String(),
      customerId: Type.String(),
      createdAt: DateTime,
      endedAt: Nullable(DateTime),
      stripeUrl: StripeUrl,
    }),
  ),
  customers: Type.Array(Type.Object({ id: Type.String(), stripeUrl: StripeUrl })),
  events: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.String(),
      receivedAt: DateTime,
      objectId: Nullable(Type.String()),
      /** `applied`, `recorded` (nothing to apply), or null for events older than the desk. */
      outcome: Nullable(Type.String()),
      notes: Nullable(Type.String()),
      stripeUrl: StripeUrl,
    }),
  ),
  sessions: Type.Array(
    Type.Object({
      id: Type.String(),
      userAgent: Nullable(Type.String()),
      /** The User-Agent in words, "Chrome 131 on macOS"; null when nothing can be read from it. */
      browser: Nullable(Type.String()),
      createdAt: DateTime,
      lastSeenAt: DateTime,
      signedInAt: Nullable(DateTime),
    }),
  ),
  perkClaims: Type.Array(Type.Object({ perkId: Type.String(), claimedAt: DateTime })),
  audit: Type.Array(DeskAuditEntrySchema),
});
export type DeskMember = Static<typeof DeskMemberSchema>;

const UserId = Type.String({ pattern: UUID_PATTERN.source });
export const DeskMemberParamsSchema = Type.Object({ id: UserId });
export const DeskCompParamsSchema = Type.Object({
  id: UserId,
  compId: Type.String({ pattern: '^comp_[0-9a-f-]{36}$' }),
});

/** POST /api/desk/members/:id/comps. */
export const DeskCompBodySchema = Type.Object(
  {
    /** The last day of the comp (YYYY-MM-DD, through the end of that day, UTC), or a date-time. */
    until: Type.String({ minLength: 10, maxLength: 40 }),
    reason: Type.String({ minLength: 1, maxLength: 1000 }),
    /** The tier it gives (a slug; the default tier when left out). */
    tier: Type.Optional(TierChoiceSchema),
  },
  { additionalProperties: false },
);
export type DeskCompBody = Static<typeof DeskCompBodySchema>;

/** What an action did, in a sentence for the desk. */
export const DeskActionResultSchema = Type.Object({ message: Type.String() });

/** GET /api/desk/dashboard: what earns, from the ledger, in the configured currency. */
/** A tier on the dashboard: its members now and what was paid for it (desk/revenue-by-tier.ts). */
export const DeskTierRevenueSchema = Type.Object({
  slug: Type.String(),
  name: Type.String(),
  /** Members whose access is this tier's now. */
  members: Type.Integer(),
  /** Paid for it this month, and over the dashboard's 12 months (refunds not taken off). */
  monthCents: Type.Integer(),
  yearCents: Type.Integer(),
});
export type DeskTierRevenue = Static<typeof DeskTierRevenueSchema>;

export const DeskDashboardSchema = Type.Object({
  currency: Type.String(),
  generatedAt: DateTime,
  /** Members now, by what gives them access. */
  activeByPlan: Type.Object({
    subscription: Type.Integer(),
    /** Of the subscribers, those on the monthly and on the yearly plan. */
    monthly: Type.Integer(),
    yearly: Type.Integer(),
    oneTime: Type.Integer(),
    comp: Type.Integer(),
    total: Type.Integer(),
  }),
  /** The last 12 weeks (Monday to Monday, UTC), oldest first; the last is the current week. */
  weeks: Type.Array(
    Type.Object({
      start: DateTime,
      /** Runs of access that began that week (a member coming back counts again). */
      newMembers: Type.Integer(),
      /** Runs of access that ended that week. */
      lostMembers: Type.Integer(),
      /** Members at the end of the week (now, for the current one). */
      members: Type.Integer(),
    }),
  ),
  /** The last 12 months (UTC), oldest first; the last is the current month. */
  months: Type.Array(
    Type.Object({
      start: DateTime,
      payments: Type.Integer(),
      revenueCents: Type.Integer(),
      /** That revenue by plan: the one-time year, monthly and yearly invoices. */
      revenueByPlan: Type.Object({
        oneTime: Type.Integer(),
        monthly: Type.Integer(),
        yearly: Type.Integer(),
        /** Gifts, by the month they were bought (claimed or not). */
        gift: Type.Integer(),
        /** Solidarity seats, by the month they were funded (granted or not). */
        seats: Type.Integer(),
      }),
      /** Payments refunded in full, by the month Cohort learned of it. */
      refundedCents: Type.Integer(),
      /** Payments lost in a dispute, by the month Cohort learned of it. */
      disputeLostCents: Type.Integer(),
    }),
  ),
  /** Each tier, in the tiers' order: its members now and what was paid for it. */
  tiers: Type.Array(DeskTierRevenueSchema),
  /** Each offer: payments that redeemed it (a subscription once) and what they brought. */
  offers: Type.Array(
    Type.Object({ code: Type.String(), redemptions: Type.Integer(), revenueCents: Type.Integer() }),
  ),
  /** Payments in another currency than the configured one: not in the figures above. */
  otherCurrencies: Type.Array(Type.Object({ currency: Type.String(), payments: Type.Integer() })),
  perks: Type.Array(
    Type.Object({
      perkId: Type.String(),
      title: Type.String(),
      claims: Type.Integer(),
      last30Days: Type.Integer(),
    }),
  ),
  /** Addresses on the newsletter list now, by state (`confirmed`: the subscribers). */
  newsletter: Type.Object({
    confirmed: Type.Integer(),
    /** Signed up, confirmation link still open (expired sign-ups are not counted). */
    pending: Type.Integer(),
    unsubscribed: Type.Integer(),
    bouncing: Type.Integer(),
    /** Confirmed subscribers whose account is a member now. */
    confirmedMembers: Type.Integer(),
  }),
});
export type DeskDashboard = Static<typeof DeskDashboardSchema>;

/** What the desk shows of a newsletter issue's (or a mailed article's) sending. */
export interface NewsletterSendStatus {
  /** Who the counts are for: the audience asked, else the one a send would take by itself. */
  audience: NewsletterAudience;
  /** Confirmed subscribers of `audience` it has not been queued for. */
  recipients: number;
  alreadyQueued: number;
  /** How many each audience would newly reach. */
  reach: NewsletterReach;
  deliveries: { sent: number; failed: number; queued: number; skipped: number };
  /** Being sent by the app server that answered. */
  sending: boolean;
  /** Whether SMTP_URL is set: without it mail goes to the log only. */
  mailing: boolean;
  sample: boolean;
  /** Whether issues carry an open pixel and links through the site (NEWSLETTER_TRACKING). */
  tracking: boolean;
  figures: NewsletterFigures;
}

/**
 * An issue's opens and clicks (docs/newsletter.md#opens-and-clicks). `opens` is an estimate:
 * subscribers whose mail loaded its pixel (many mail readers block images, some load them all).
 */
export interface NewsletterFigures {
  /** Deliveries the SMTP server accepted. */
  delivered: number;
  opens: number;
  /** Subscribers who followed at least one link. */
  clickers: number;
  /** Each link followed: by how many subscribers (`unique`) and how often (`total`). */
  links: { url: string; unique: number; total: number }[];
}

/**
 * A topic as the desk lists it (GET /api/desk/topics): every tag a published post carries, with
 * its description. PUT /api/desk/topics/:slug `{description}` (editors and owners) writes one; an
 * empty one puts back what the page says by itself.
 */
export interface DeskTopic {
  slug: string;
  name: string;
  /** Published articles and campaigns carrying it. */
  count: number;
  description: string;
  /** Whether a publisher wrote the description (else it is the page's own sentence). */
  written: boolean;
}

/** What the desk's Import page takes: the platforms, and the members CSV (server/src/imports). */
export const IMPORT_SOURCE_NAMES = ['ghost', 'wordpress', 'substack', 'medium', 'members'] as const;
export type DeskImportSource = (typeof IMPORT_SOURCE_NAMES)[number];

const SkippedSchema = Type.Object({ item: Type.String(), reason: Type.String() });
const ImportCountsSchema = Type.Object({
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  skipped: Type.Array(SkippedSchema),
});

/**
 * The images posts still show from another site's address (an import could not fetch them):
 * `count` addresses, listed by post (server/src/imports/missing-images.ts).
 */
export const DeskMissingImagesSchema = Type.Object({
  count: Type.Integer(),
  posts: Type.Array(
    Type.Object({
      id: Type.Integer(),
      kind: Type.String(),
      slug: Type.String(),
      title: Type.String(),
      urls: Type.Array(Type.String()),
    }),
  ),
});
export type DeskMissingImages = Static<typeof DeskMissingImagesSchema>;

/**
 * POST /api/desk/imports/missing-images/retry (owners): each missing image fetched again, stored,
 * and the posts that showed it rewritten; what is still missing after it.
 */
export const DeskImageRetrySchema = Type.Object({
  fetched: Type.Integer(),
  postsUpdated: Type.Integer(),
  notFetched: Type.Array(Type.Object({ url: Type.String(), reason: Type.String() })),
  missing: DeskMissingImagesSchema,
});
export type DeskImageRetry = Static<typeof DeskImageRetrySchema>;

/** An import's report (server/src/imports/source.ts ImportReport), as the desk shows it. */
export const DeskImportReportSchema = Type.Object({
  source: Type.String(),
  dryRun: Type.Boolean(),
  posts: ImportCountsSchema,
  pages: ImportCountsSchema,
  members: ImportCountsSchema,
  drafts: Type.Integer(),
  scheduled: Type.Integer(),
  topics: Type.Integer(),
  redirects: Type.Integer(),
  images: Type.Object({
    stored: Type.Integer(),
    notFetched: Type.Array(Type.Object({ url: Type.String(), reason: Type.String() })),
    /** After the run, the images posts still show from elsewhere (absent from older reports). */
    missing: Type.Optional(DeskMissingImagesSchema),
  }),
  unmappedPrices: Type.Array(Type.String()),
  comments: Type.Object({ imported: Type.Integer(), skipped: Type.Integer() }),
  /** What the import decided that the publisher should know (absent from older reports). */
  notes: Type.Optional(Type.Array(Type.String())),
  seconds: Type.Number(),
});
export type DeskImportReport = Static<typeof DeskImportReportSchema>;

/** GET /api/desk/imports/:id: an import started from the desk, while it runs and after. */
export const DeskImportSchema = Type.Object({
  id: Type.String(),
  status: Type.Union([
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('done'),
    Type.Literal('failed'),
  ]),
  /** Where it is: `reading`, `images`, `posts`, `members`, and how far; `at`: when it said so. */
  progress: Type.Object({
    phase: Type.Optional(Type.String()),
    done: Type.Optional(Type.Number()),
    total: Type.Optional(Type.Number()),
    message: Type.Optional(Type.String()),
    at: Type.Optional(Type.String()),
  }),
  report: Nullable(DeskImportReportSchema),
  /** Why it failed, in words. */
  error: Nullable(Type.String()),
  source: Type.String(),
  section: Nullable(Type.String()),
  fileName: Nullable(Type.String()),
  createdAt: DateTime,
  finishedAt: Nullable(DateTime),
});
export type DeskImport = Static<typeof DeskImportSchema>;

/** GET /api/desk/imports: the last 20, newest first, and the largest file an upload may be. */
export const DeskImportsSchema = Type.Object({
  imports: Type.Array(DeskImportSchema),
  /** IMPORT_MAX_MB, in bytes. */
  maxBytes: Type.Integer(),
});
export type DeskImports = Static<typeof DeskImportsSchema>;
