import { Type, type Static } from 'typebox';
import { MAX_PASSWORD_LENGTH } from './account-rules.js';
import { PlanSchema } from './plans-api.js';
import { PublicTierSchema, TierChoiceSchema } from './tiers.js';

/**
 * What the client and the server agree on for the HTTP API (docs/decisions/0010), as TypeBox
 * schemas: the server validates and serialises with them (Fastify's type provider), the client
 * takes its types from them (`import type`, so none of this reaches the bundle).
 */

export const ErrorResponseSchema = Type.Object({
  error: Type.Object({ code: Type.String(), message: Type.String() }),
});

export const MembershipSchema = Type.Object({
  plan: Type.Union([Type.Literal('one-time'), Type.Literal('subscription')]),
  status: Type.String(),
  /** When access stops (exclusive): a subscription renews then. */
  expiresAt: Type.String({ format: 'date-time' }),
  /** The last day of access (UTC, `YYYY-MM-DD`): what "ends on" says (contract/last-day.ts). */
  lastDay: Type.String({ format: 'date' }),
});

export const UserSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  email: Type.Union([Type.String(), Type.Null()]),
  isSubscribed: Type.Boolean(),
  membership: Type.Union([MembershipSchema, Type.Null()]),
});
export type User = Static<typeof UserSchema>;

export const UserResponseSchema = Type.Object({ user: UserSchema });

/** GET /api/config: what this deployment tells the browser. */
export const SiteConfigSchema = Type.Object({
  siteName: Type.String(),
  /** The public address: Stripe's return_url is built from it (docs/decisions/0027). */
  siteUrl: Type.String(),
  paymentsEnabled: Type.Boolean(),
  stripePublishableKey: Type.Union([Type.String(), Type.Null()]),
  /** A year's price: the one-time year's, or the yearly plan's when that one is not sold. */
  priceCents: Type.Integer(),
  currency: Type.String(),
  /**
   * The first tier's plans on sale (docs/decisions/0022-plans.md), as before tiers; none while
   * payments are off.
   */
  plans: Type.Array(PlanSchema),
  /**
   * The visible tiers, in their order, each with its prices (contract/tiers.ts): every price is
   * null while payments are off.
   */
  tiers: Type.Array(PublicTierSchema),
  paywallDelayMs: Type.Integer(),
  /** The site's social profile (SOCIAL_URL) and its name; null when unset: no link is shown. */
  social: Type.Union([Type.Object({ url: Type.String(), label: Type.String() }), Type.Null()]),
});
export type SiteConfig = Static<typeof SiteConfigSchema>;

/** POST /create-payment-intent. */
export const PaymentIntentBodySchema = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        { id: Type.String({ minLength: 1, maxLength: 100 }) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 10 },
    ),
    /** An offer's code: the year is priced with its discount. */
    offer: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    /** The tier whose year it is, by slug (the default tier when absent). */
    tier: Type.Optional(TierChoiceSchema),
  },
  { additionalProperties: false },
);
export const ClientSecretResponseSchema = Type.Object({
  clientSecret: Type.String(),
  /** What the PaymentIntent charges (an offer's discount taken off), and before any discount. */
  amountCents: Type.Optional(Type.Integer()),
  fullPriceCents: Type.Optional(Type.Integer()),
});
export const UrlResponseSchema = Type.Object({ url: Type.String() });

/** GET /api/account/payments: each payment and the time it covers on the ledger. */
export const PaymentSchema = Type.Object({
  id: Type.String(),
  kind: Type.Union([
    Type.Literal('one-time'),
    Type.Literal('subscription-invoice'),
    Type.Literal('comp'),
    Type.Literal('gift'),
    Type.Literal('sponsored'),
  ]),
  amountCents: Type.Integer(),
  currency: Type.String(),
  /** A subscription invoice's billing interval (its plan: monthly or yearly); null otherwise. */
  interval: Type.Union([Type.Literal('month'), Type.Literal('year'), Type.Null()]),
  /** A free trial's period (nothing paid). */
  trial: Type.Boolean(),
  paidAt: Type.String({ format: 'date-time' }),
  state: Type.Union([
    Type.Literal('active'),
    Type.Literal('suspended'),
    Type.Literal('refunded'),
    Type.Literal('revoked'),
  ]),
  covers: Type.Union([
    Type.Object({
      from: Type.String({ format: 'date-time' }),
      /** Where the time it gives stops (exclusive). */
      until: Type.String({ format: 'date-time' }),
      /** The last day it covers (UTC, `YYYY-MM-DD`): a comp's is the day the desk entered. */
      lastDay: Type.String({ format: 'date' }),
    }),
    Type.Null(),
  ]),
});
export type Payment = Static<typeof PaymentSchema>;
export const PaymentsResponseSchema = Type.Object({ payments: Type.Array(PaymentSchema) });

// ── Accounts ──────────────────────────────────────────────────────────────────────────────────

const Email = Type.String({ minLength: 1, maxLength: 320 });
// Longer than the policy allows, so an over-long password gets the policy's own message.
const Password = Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH * 2 });
const body = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

const Token = Type.String({ minLength: 1, maxLength: 200 });
/**
 * A browser that did not ask for the mailed link, holding a membership bought without an account,
 * moves it into the account only when its reader says so.
 */
const MoveMembership = Type.Optional(Type.Boolean());

/** POST /api/auth/login. */
export const CredentialsBodySchema = body({ email: Email, password: Password });
/**
 * POST /api/auth/register: mails the address a link to finish. The owner of the address chooses
 * the password on the page the link opens; a `password` sent here (by pages from before that) is
 * never used.
 */
export const RegisterBodySchema = body({ email: Email, password: Type.Optional(Password) });
/** POST /api/auth/register/confirm: the token from the link, and the owner's password. */
export const RegisterConfirmBodySchema = body({
  token: Token,
  password: Password,
  moveMembership: MoveMembership,
});
/** POST /api/auth/email-link: mails a sign-in link and code. */
export const EmailLinkBodySchema = body({ email: Email });
/** POST /api/auth/email-link/confirm: the token from the link. */
export const EmailLinkConfirmBodySchema = body({ token: Token, moveMembership: MoveMembership });
/** POST /api/auth/register/preview and /api/auth/email-link/preview: the token from the link. */
export const EmailTokenBodySchema = body({ token: Token });
/** What the page a mailed link opens shows before its button is pressed (nothing is used up). */
export const MailedLinkPreviewSchema = Type.Object({
  /** The address the link signs in to, or makes the account of. */
  email: Type.String(),
  /** This browser holds a membership bought without an account, and did not ask for the link. */
  askToMove: Type.Boolean(),
});
export type MailedLinkPreview = Static<typeof MailedLinkPreviewSchema>;
/** POST /api/auth/email-code/confirm: the 6-digit code from the mail, typed where it was asked. */
export const EmailCodeBodySchema = body({
  email: Email,
  code: Type.String({ minLength: 1, maxLength: 20 }),
});
/** POST /api/auth/password-reset. */
export const PasswordResetBodySchema = body({ email: Email });
/** POST /api/auth/password-reset/confirm. */
export const PasswordResetConfirmBodySchema = body({
  token: Type.String({ minLength: 1, maxLength: 200 }),
  password: Password,
});
// The current password may be left out after a recent sign-in by link, code or passkey
// (GET /api/account/recent-sign-in says until when).
/** POST /api/auth/password. */
export const PasswordChangeBodySchema = body({
  currentPassword: Type.Optional(Password),
  newPassword: Password,
});
/** POST /api/account/email. */
export const EmailChangeBodySchema = body({ email: Email, password: Type.Optional(Password) });
/** POST /api/account/delete. */
export const AccountDeleteBodySchema = body({ password: Type.Optional(Password) });
/** GET /api/account/recent-sign-in: what an account change needs from this browser. */
export const RecentSignInResponseSchema = Type.Object({
  hasPassword: Type.Boolean(),
  /**
   * Until when this browser's sign-in by link, code or passkey stands in for the password; null
   * when it does not (a password sign-in, or more than 12 hours ago).
   */
  recentSignInUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type RecentSignIn = Static<typeof RecentSignInResponseSchema>;

export const MessageResponseSchema = Type.Object({ message: Type.String() });

/** contract/sign-in-methods.ts's methods, for the API's schemas. */
export const SignInMethodSchema = Type.Union([
  Type.Literal('password'),
  Type.Literal('link'),
  Type.Literal('code'),
  Type.Literal('passkey'),
]);

/** A registered user's signed-in browser, as `/account` lists them. */
export const AccountSessionSchema = Type.Object({
  id: Type.String(),
  /** The browser's User-Agent when it signed in, or null. */
  userAgent: Type.Union([Type.String(), Type.Null()]),
  /** That User-Agent in words, "Chrome 131 on macOS"; null when nothing can be read from it. */
  browser: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  lastSeenAt: Type.String({ format: 'date-time' }),
  /** How it signed in (contract/sign-in-methods.ts); null for a session from before that. */
  signInMethod: Type.Union([SignInMethodSchema, Type.Null()]),
  /** The browser asking. */
  current: Type.Boolean(),
});
export type AccountSession = Static<typeof AccountSessionSchema>;
export const AccountSessionsResponseSchema = Type.Object({
  sessions: Type.Array(AccountSessionSchema),
});

/** POST /api/account/email/confirm: the token from the link mailed to the new address. */
export const EmailChangeConfirmBodySchema = body({
  token: Type.String({ minLength: 1, maxLength: 200 }),
});

/** POST /api/perks/:id/redeem: a perk's id (content/perks/<id>.md). */
export const PerkParamsSchema = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 80 }),
});

/** What a member gets for a perk: a code to type, or a link to follow. The same every time. */
export const PerkRedemptionSchema = Type.Union([
  Type.Object({ perkId: Type.String(), code: Type.String() }),
  Type.Object({ perkId: Type.String(), link: Type.String() }),
]);
export type PerkRedemption = Static<typeof PerkRedemptionSchema>;
