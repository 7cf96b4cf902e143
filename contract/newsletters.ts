import { Type, type Static, type StaticDecode } from 'typebox';
import { MAX_EMAIL_LENGTH } from './account-rules.js';
import { idField, lineField, slugField, textField, yesNoField } from './field-schemas.js';
import type { AuthorCredit } from './authors.js';
import type { MarkdownTree } from './markdown-tree.js';
import { postFieldSchemas, publishedAtSchema } from './post-fields.js';
import type { TierName } from './reading.js';
import { MAX_TIERS, TierChoiceSchema } from './tiers.js';

// Newsletter issues: posts of kind `newsletter` (contract/posts.ts), imported from
// content/newsletters/<slug>.md (content/FORMAT.md), whose front matter `newsletterSchema` checks.
// The server draws every issue, body included, from the database to mail it and to show members
// its body; a members-only body never reaches a non-member.

export const newsletterSchema = Type.Object(
  {
    /** The post's id: optional (a new issue gets the next free one), kept by an export. */
    id: Type.Optional(idField()),
    slug: slugField(),
    title: lineField(120),
    /** What the issue is about, in a sentence or two: the archive shows it to everybody. */
    summary: textField(300),
    publishedAt: publishedAtSchema,
    /** The body only for members (and in the mail); others see the summary. */
    membersOnly: yesNoField({ default: false }),
    /** Articles shown as cards under the body, by slug. */
    articles: postFieldSchemas.newsletter.properties.articles,
    /** A sample shipped with Cohort: `newsletter:send` refuses it unless told it is meant. */
    sample: yesNoField({ default: false }),
  },
  { additionalProperties: false },
);
/** A file's front matter as read: what it leaves out is the default (`articles: []`…). */
export type NewsletterFrontMatter = StaticDecode<typeof newsletterSchema>;

/** An article card under an issue, as the server resolved it from the slug. */
export const NewsletterArticleSchema = Type.Object({
  slug: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  /** The article's path on the site: `/health/sleep-debt-reset`. */
  path: Type.String({ pattern: '^/' }),
});
export type NewsletterArticle = Static<typeof NewsletterArticleSchema>;

export const NewsletterIssueSchema = Type.Object({
  slug: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  publishedAt: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  membersOnly: Type.Boolean(),
  articles: Type.Array(NewsletterArticleSchema),
  sample: Type.Boolean(),
  /** The body, as contract/markdown-tree.ts describes it (checked shallowly: the server made it). */
  body: Type.Object({ type: Type.Literal('root'), children: Type.Array(Type.Unknown()) }),
});

/** One issue as the server reads it: the schema's shape, with the body's full type. */
export type NewsletterIssue = Omit<Static<typeof NewsletterIssueSchema>, 'body'> & {
  body: MarkdownTree;
  /** Its byline (contract/authors.ts); left out when credited to nobody. */
  authors?: AuthorCredit[];
};

/**
 * An issue as the archive lists it: everything but the body. The client bundles these for every
 * issue (and the bodies of public issues only); members fetch a members-only body from the API.
 */
export type NewsletterListing = Omit<NewsletterIssue, 'body' | 'articles'> & {
  /** The embedded articles' slugs, in the issue's order. */
  articles: string[];
};

/** Where the pages live on the site. */
export const NEWSLETTER_PATHS = {
  archive: '/newsletter',
  issue: (slug: string) => `/newsletter/${slug}`,
  confirm: '/newsletter/confirm',
  unsubscribe: '/newsletter/unsubscribe',
} as const;

/** Pages under /newsletter/ that are not issues: no issue may take their slug. */
export const RESERVED_NEWSLETTER_SLUGS = ['confirm', 'unsubscribe'] as const;

/** How long a confirmation link works: unconfirmed sign-ups are dropped after that. */
export const NEWSLETTER_CONFIRM_DAYS = 7;

// ── The HTTP API ──────────────────────────────────────────────────────────────────────────────

const body = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });
const Token = Type.String({ minLength: 1, maxLength: 200 });

/** POST /api/newsletter/subscribe. */
export const NewsletterSubscribeBodySchema = body({
  email: Type.String({ minLength: 1, maxLength: MAX_EMAIL_LENGTH + 66 }),
});
/** POST /api/newsletter/confirm: the token from the link in the confirmation mail. */
export const NewsletterTokenBodySchema = body({ token: Token });
/** POST /api/newsletter/unsubscribe?token=… (RFC 8058 one-click; the body is ignored). */
export const NewsletterTokenQuerySchema = Type.Object({ token: Token });

/** GET /api/newsletter/issues/:slug. */
export const NewsletterIssueParamsSchema = Type.Object({
  slug: Type.String({ minLength: 1, maxLength: 120, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }),
});
/**
 * An issue's body: a members-only issue's for members only (401 without a session, 403
 * `members_only` for everyone else); a public issue's for anyone.
 */
export const NewsletterIssueBodySchema = Type.Object({
  slug: Type.String(),
  body: NewsletterIssueSchema.properties.body,
});
export type NewsletterIssueBody = Pick<NewsletterIssue, 'slug' | 'body'>;

/** What a subscriber's choice is, for /account. */
export const NewsletterSubscriptionSchema = Type.Object({
  email: Type.String(),
  subscribed: Type.Boolean(),
  /** A confirmation link is out and not yet pressed. */
  pending: Type.Boolean(),
});
export type NewsletterSubscription = Static<typeof NewsletterSubscriptionSchema>;
/** POST /api/newsletter/subscription: a registered user turns the newsletter on or off. */
export const NewsletterSubscriptionBodySchema = body({ subscribed: Type.Boolean() });

// ── Who an issue is sent to ───────────────────────────────────────────────────────────────────

/**
 * Who a send reaches of the confirmed subscribers, by what each one's account gives now. `all`:
 * every one. `free`: those without paid access now, as Ghost's free members are (a subscriber
 * without an account, or whose account holds no tier now). `paid`: access from any tier. `tiers`:
 * access from one of the tiers named. What each of them gets of a restricted post (the whole, or
 * its opening and a call to upgrade) is the reading rule's (contract/reading.ts), not the audience's.
 */
export const NEWSLETTER_AUDIENCES = ['all', 'free', 'paid', 'tiers'] as const;
export type NewsletterAudienceName = (typeof NEWSLETTER_AUDIENCES)[number];

/** An audience with its tiers' slugs (empty unless `audience` is `tiers`). */
export interface NewsletterAudience {
  audience: NewsletterAudienceName;
  tiers: string[];
}

export const EVERYONE: NewsletterAudience = { audience: 'all', tiers: [] };

const AudienceSchema = Type.Union(
  NEWSLETTER_AUDIENCES.map((name) => Type.Literal(name)),
  { errorMessage: `must be one of ${NEWSLETTER_AUDIENCES.join(', ')}` },
);
const AudienceTiersSchema = Type.Array(TierChoiceSchema, {
  minItems: 1,
  maxItems: MAX_TIERS,
  errorMessage: `must list from 1 to ${MAX_TIERS} tiers' slugs`,
});

/**
 * POST /api/desk/posts/:id/newsletter/send. `audience` left out: the audience the issue was sent
 * to before, else everyone (`all`), except that an issue for paying members or for tiers goes, as
 * a members-only issue always did, to those who may read it.
 */
export const NewsletterSendBodySchema = Type.Object({
  /** The recipient count the desk showed (for this audience) and the staff member confirmed. */
  recipients: Type.Integer({ minimum: 0, errorMessage: 'must be a whole number from 0' }),
  /** Send a shipped sample issue all the same. */
  sendSample: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
  audience: Type.Optional(AudienceSchema),
  /** With audience `tiers`: the slugs of the tiers whose members get it. */
  tiers: Type.Optional(AudienceTiersSchema),
});
export type NewsletterSendBody = Static<typeof NewsletterSendBodySchema>;

/**
 * GET /api/desk/posts/:id/newsletter: the counts for this audience (left out: the one a send
 * without `audience` would take); `tiers` is a comma-separated list of slugs.
 */
export const NewsletterStatusQuerySchema = Type.Object({
  audience: Type.Optional(AudienceSchema),
  tiers: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1000, errorMessage: 'must be slugs, comma-separated' }),
  ),
});

/**
 * The audience a send's body (or the status's query) names, `null` when it names none, or what
 * is wrong with it: `tiers` goes with the audience `tiers`, and only with it.
 */
export function readAudience(
  audience: NewsletterAudienceName | undefined,
  tiers: readonly string[] | undefined,
): { ok: true; value: NewsletterAudience | null } | { ok: false; message: string } {
  if (audience === undefined && tiers === undefined) return { ok: true, value: null };
  if (audience === 'tiers') {
    if (!tiers || tiers.length === 0) {
      return {
        ok: false,
        message: 'The audience "tiers" needs `tiers`: the slugs of the tiers to send it to.',
      };
    }
    return { ok: true, value: { audience, tiers: [...new Set(tiers)] } };
  }
  if (tiers !== undefined) {
    return {
      ok: false,
      message:
        '`tiers` names whom to send it to with the audience "tiers" only: add audience: "tiers", or leave tiers out.',
    };
  }
  return { ok: true, value: { audience: audience ?? 'all', tiers: [] } };
}

/**
 * An audience in words, its tiers by name where `tiers` names them: "everyone subscribed", "free
 * members", "paying members", "members of Founder and Patron".
 */
export function describeAudience(
  audience: NewsletterAudience,
  tiers: readonly TierName[] = [],
): string {
  switch (audience.audience) {
    case 'all':
      return 'everyone subscribed';
    case 'free':
      return 'free members';
    case 'paid':
      return 'paying members';
    case 'tiers': {
      const names = audience.tiers.map(
        (slug) => tiers.find((tier) => tier.slug === slug)?.name ?? slug,
      );
      const list =
        names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
      return `members of ${list}`;
    }
  }
}

/** Whether two audiences reach the same subscribers. */
export const sameAudience = (a: NewsletterAudience, b: NewsletterAudience) =>
  a.audience === b.audience &&
  a.tiers.length === b.tiers.length &&
  a.tiers.every((slug) => b.tiers.includes(slug));

/** How many confirmed subscribers each audience would newly reach (the desk's choice). */
export interface NewsletterReach {
  all: number;
  free: number;
  paid: number;
  /** Every tier, in the tiers' order (hidden ones too: they may still have members). */
  tiers: { slug: string; name: string; recipients: number }[];
}
