import { join } from 'node:path';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { isValidEmail, normalizeEmail } from '../../contract/account-rules.js';
import { webAddressField } from '../../contract/field-schemas.js';
import { readBySchema } from '../../contract/schema-problems.js';
import { LIMITS, limitsWith, type Limits } from './limits.js';
import { stripeKeyProblems } from './stripe/key-check.js';
import type { S3Options } from './uploads/image-store.js';
import { senderNamed } from './mail/sender.js';

/** Typed configuration, read from the environment once at start-up. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  siteUrl: string;
  siteName: string;
  /** SITE_NAME was set: it wins over the sample site's title at the first start. */
  siteNameSet: boolean;
  /**
   * A new site's first start loads the sample content (posts, perks, sections, settings) from
   * content/ (SAMPLE_CONTENT, on unless off); an existing site is never changed by it.
   */
  sampleContent: boolean;
  logLevel: string;
  /** `undefined` means: start the embedded database under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** `undefined` means: generate one into `dataDir` (never in production). */
  sessionSecret: string | undefined;
  sessionSecretPrevious: string | undefined;
  trustProxy: boolean | string;
  /** Every route's rate limit by name (limits.ts), with the *_RATE_LIMIT variables' maxes. */
  limits: Limits;
  /** SMTP connections a newsletter send keeps open (and mails in flight). */
  newsletterConnections: number;
  /** An open pixel and links through the site in each issue (NEWSLETTER_TRACKING, on unless off). */
  newsletterTracking: boolean;
  stripe: StripeConfig | null;
  membership: {
    /** The first start's price of a year (paid once, or yearly); the desk's plans after. */
    priceCents: number;
    /** The first start's price of a month; the desk's plans after. */
    monthlyPriceCents: number;
    currency: string;
    /** Days of access after a failed renewal's last paid period (`past_due`). */
    graceDays: number;
  };
  paywallDelayMs: number;
  /** The site's social profile for the navbar; `null` hides the link. */
  social: SocialLink | null;
  smtpUrl: string | undefined;
  /** MAIL_FROM, or the sender named after SITE_NAME (mail/sender.ts). */
  mailFrom: string;
  /**
   * Whether MAIL_FROM is set: unset, the site's mail is from the publication's title of the
   * moment (its settings), not SITE_NAME's.
   */
  mailFromSet: boolean;
  redisUrl: string | undefined;
  /** Who may open the publisher's desk (/desk): registered accounts by email. */
  staff: StaffConfig;
  /** The bearer token for GET /metrics; undefined = metrics off. */
  metricsToken: string | undefined;
  /** The most database connections this process opens. */
  databasePoolSize: number;
  /**
   * Uploaded images (decision note 0017), audio and video (0029): where they are kept, and the
   * largest file of each taken.
   */
  uploads: {
    dir: string;
    maxBytes: number;
    audioMaxBytes: number;
    videoMaxBytes: number;
    s3: S3Options | null;
  };
  /** The largest export file the desk's Import page takes (IMPORT_MAX_MB), in bytes. */
  importMaxBytes: number;
  /** Apply pending migrations at start (true), or only check that none is pending (false). */
  migrateOnStart: boolean;
  /** Comments under posts (docs/comments.md): who may write them, and whether a new account's
   * first comment with a link waits for approval (COMMENTS, COMMENTS_HOLD_FIRST_LINK). */
  comments: { who: 'members' | 'everyone' | 'off'; holdFirstLink: boolean };
  /** Webhooks out may go to private and loopback addresses (WEBHOOKS_ALLOW_PRIVATE=on). */
  webhooksAllowPrivate: boolean;
  /**
   * What the site reads of cards' addresses may come from private and loopback addresses
   * (OUTBOUND_ALLOW_PRIVATE=on): for tests on one machine, refused in production.
   */
  outboundAllowPrivate: boolean;
  /** What is wrong but does not stop start-up outside production: logged at start. */
  warnings: string[];
}

export interface StaffConfig {
  /** `STAFF_EMAILS`: see and change everything on the desk. Normalised like account emails. */
  owners: string[];
  /** `EDITOR_EMAILS`: write, edit and publish posts; see members and money, change nothing. */
  editors: string[];
  /** `WRITER_EMAILS`: write and edit drafts and submit them; nothing else of the desk. */
  writers: string[];
}

export interface SocialLink {
  url: string;
  /** Named by its host: "Instagram" for instagram.com, "Social" for a host we do not know. */
  label: string;
}

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  priceId: string | undefined;
  apiUrl: string | undefined;
  /** How long one call to Stripe's API may take in all, its one retry included. */
  timeoutMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

// The environment is text: each variable is read by a codec that checks the text and turns it
// into its value (contract/schema-problems.ts names each bad one). An empty variable, as an .env
// file leaves it, is unset where a variable is optional.

/** Trimmed text, or undefined when empty; `check` is what any other text must pass. */
const optionalText = (check?: { test: (text: string) => boolean; message: string }) =>
  Type.Optional(
    Type.Codec(
      Type.Refine(
        Type.String(),
        (value) => value.trim() === '' || check === undefined || check.test(value.trim()),
        () => check?.message ?? '',
      ),
    )
      .Decode((value) => value.trim() || undefined)
      .Encode((value) => value ?? ''),
  );

/** Trimmed text that says something, `fallback` unless set. */
const requiredText = (fallback: string) =>
  Type.Codec(
    Type.Refine(
      Type.String({ default: fallback }),
      (value) => value.trim() !== '',
      () => 'must not be empty',
    ),
  )
    .Decode((value) => value.trim())
    .Encode((value) => value);

const matching = (pattern: RegExp, message: string) => ({
  test: (text: string) => pattern.test(text),
  message,
});
const atLeast = (length: number, message: string) => ({
  test: (text: string) => text.length >= length,
  message,
});
const webAddress = (protocols: readonly string[], message: string) => {
  const schema = webAddressField(protocols, message);
  return { test: (text: string) => Value.Check(schema, text), message };
};
const httpUrl = webAddress(['http', 'https'], 'must be an http:// or https:// URL');

/** A whole number from `min` to `max`, as JavaScript's Number reads the text; `fallback` unless set. */
const integer = (min: number, max: number, fallback: number) => {
  const whole = (value: string) => Number.isInteger(Number(value));
  return Type.Codec(
    Type.Refine(
      Type.Refine(
        Type.Refine(
          Type.String({ default: String(fallback) }),
          whole,
          () => 'must be a whole number',
        ),
        (value) => !whole(value) || Number(value) >= min,
        () => `must be at least ${min}`,
      ),
      (value) => !whole(value) || Number(value) <= max,
      () => `must be at most ${max}`,
    ),
  )
    .Decode((value) => Number(value))
    .Encode((value) => String(value));
};

const oneOf = <const Values extends string[]>(values: readonly [...Values], fallback: string) =>
  Type.Enum(values, { default: fallback, errorMessage: `must be one of ${values.join(', ')}` });

/** A comma-separated list of account emails, each normalised as registration does. */
const emailList = () => {
  const emailsOf = (value: string) =>
    value
      .split(',')
      .map((email) => normalizeEmail(email))
      .filter((email) => email !== '');
  const wrong = (value: string) => emailsOf(value).filter((email) => !isValidEmail(email));
  return Type.Codec(
    Type.Refine(
      Type.String({ default: '' }),
      (value) => wrong(value).length === 0,
      (value) =>
        `${wrong(value).join(', ')} ${wrong(value).length === 1 ? 'is not an email address' : 'are not email addresses'}`,
    ),
  )
    .Decode((value) => [...new Set(emailsOf(value))])
    .Encode((value) => value.join(','));
};

const BOOLEAN_TEXT = ['true', 'false', '1', '0', 'yes', 'no'];
/** true/false, 1/0 or yes/no; undefined for any other text. */
function readBooleanText(text: string): boolean | undefined {
  if (!BOOLEAN_TEXT.includes(text)) return undefined;
  return ['true', '1', 'yes'].includes(text);
}
const optionalBoolean = () =>
  Type.Optional(
    Type.Codec(
      Type.Refine(
        Type.String(),
        (value) => value.trim() === '' || readBooleanText(value.trim()) !== undefined,
        () => 'must be true or false',
      ),
    )
      .Decode((value) => readBooleanText(value.trim()))
      .Encode((value) => (value === undefined ? '' : String(value))),
  );

export const envSchema = Type.Object({
  NODE_ENV: oneOf(['development', 'production', 'test'], 'development'),
  HOST: optionalText(),
  PORT: integer(0, 65535, 3000),
  SITE_URL: Type.Codec(
    Type.Refine(
      Type.String({ default: 'http://localhost:3000' }),
      (value) => httpUrl.test(value),
      () => httpUrl.message,
    ),
  )
    .Decode((value) => value.trim())
    .Encode((value) => value),
  SITE_NAME: requiredText('Cohort'),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  DATABASE_URL: optionalText(
    matching(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string'),
  ),
  DATA_DIR: requiredText('data'),
  SESSION_SECRET: optionalText(
    atLeast(32, 'must be at least 32 characters (try: openssl rand -hex 32)'),
  ),
  SESSION_SECRET_PREVIOUS: optionalText(atLeast(32, 'must be at least 32 characters')),
  TRUST_PROXY: optionalText(),
  SESSION_RATE_LIMIT: integer(1, 100_000, LIMITS.session.max),
  LOGIN_RATE_LIMIT: integer(1, 100_000, LIMITS.login.max),
  ACCOUNT_RATE_LIMIT: integer(1, 100_000, LIMITS.account.max),
  NEWSLETTER_RATE_LIMIT: integer(1, 100_000, LIMITS.newsletter.max),
  EVENTS_RATE_LIMIT: integer(1, 1_000_000, LIMITS.events.max),
  NEWSLETTER_SMTP_CONNECTIONS: integer(1, 50, 5),
  NEWSLETTER_TRACKING: oneOf(['on', 'off'], 'on'),
  SAMPLE_CONTENT: oneOf(['on', 'off'], 'on'),
  STRIPE_SECRET_KEY: optionalText(),
  STRIPE_PUBLISHABLE_KEY: optionalText(),
  STRIPE_WEBHOOK_SECRET: optionalText(),
  STRIPE_PRICE_ID: optionalText(),
  STRIPE_API_URL: optionalText(httpUrl),
  STRIPE_TIMEOUT_MS: integer(100, 120_000, 7_000),
  MEMBERSHIP_PRICE_CENTS: integer(50, 99_999_999, 1200),
  MONTHLY_PRICE_CENTS: integer(50, 99_999_999, 100),
  MEMBERSHIP_CURRENCY: Type.Codec(
    Type.Refine(
      Type.String({ default: 'usd' }),
      (value) => /^[a-z]{3}$/.test(value.trim().toLowerCase()),
      () => 'must be a three-letter ISO currency code such as usd',
    ),
  )
    .Decode((value) => value.trim().toLowerCase())
    .Encode((value) => value),
  MEMBERSHIP_GRACE_DAYS: integer(0, 60, 7),
  PAYWALL_DELAY_MS: integer(0, 86_400_000, 30_000),
  SOCIAL_URL: optionalText(webAddress(['https'], 'must be an https:// URL')),
  SMTP_URL: optionalText(matching(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')),
  // Unset: mail comes from the site's name (SITE_NAME) at no-reply@localhost.
  MAIL_FROM: Type.Optional(
    Type.Codec(
      Type.Refine(
        Type.String(),
        (value) => value.trim().length >= 3,
        () => 'must be at least 3 characters',
      ),
    )
      .Decode((value) => value.trim())
      .Encode((value) => value),
  ),
  MAIL_TRANSPORT: optionalText(matching(/^(smtp|log)$/, 'must be one of smtp, log')),
  REDIS_URL: optionalText(matching(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')),
  STAFF_EMAILS: emailList(),
  EDITOR_EMAILS: emailList(),
  WRITER_EMAILS: emailList(),
  METRICS_TOKEN: optionalText(
    atLeast(16, 'must be at least 16 characters (try: openssl rand -hex 24)'),
  ),
  DATABASE_POOL_SIZE: integer(1, 1_000, 10),
  /** Uploaded images' folder; DATA_DIR/uploads unless set. */
  UPLOADS_DIR: optionalText(),
  /** An S3-compatible bucket for the uploaded images instead of the folder (several machines). */
  S3_ENDPOINT: optionalText(httpUrl),
  S3_BUCKET: optionalText(),
  S3_REGION: optionalText(),
  S3_ACCESS_KEY_ID: optionalText(),
  S3_SECRET_ACCESS_KEY: optionalText(),
  /** The largest image file the desk takes, in megabytes. */
  UPLOAD_MAX_MB: integer(1, 200, 20),
  /** The largest audio file (MP3, M4A, Ogg) the desk takes, in megabytes. */
  AUDIO_MAX_MB: integer(1, 2048, 200),
  /** The largest video file (MP4, WebM) the desk takes, in megabytes. */
  VIDEO_MAX_MB: integer(1, 2048, 500),
  /** The largest export file (a Ghost zip with its images…) the desk's Import page takes, in MB. */
  IMPORT_MAX_MB: integer(1, 2048, 200),
  MIGRATE_ON_START: optionalBoolean(),
  COMMENTS: oneOf(['members', 'everyone', 'off'], 'members'),
  COMMENTS_HOLD_FIRST_LINK: oneOf(['on', 'off'], 'off'),
  /** Integrations' webhooks may be sent to private, loopback and link-local addresses. */
  WEBHOOKS_ALLOW_PRIVATE: oneOf(['on', 'off'], 'off'),
  /** Cards' pages and providers may be read from private and loopback addresses (tests only). */
  OUTBOUND_ALLOW_PRIVATE: oneOf(['on', 'off'], 'off'),
  ALLOW_INSECURE_SITE_URL: optionalBoolean(),
});

/** Host names that only ever mean this machine (or no real site). */
const LOCAL_HOST = /^(localhost|.*\.localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/i;

/**
 * What is wrong with a production SITE_URL: it must be the public https address, or Stripe's
 * return links, the session cookie's Secure flag and the cross-site check all go wrong. A private
 * network without TLS says so on purpose with ALLOW_INSECURE_SITE_URL=true.
 */
function siteUrlProblems(siteUrl: string, allowInsecure: boolean): string[] {
  if (allowInsecure) return [];
  const url = new URL(siteUrl);
  const problems: string[] = [];
  const override = ' (ALLOW_INSECURE_SITE_URL=true allows it on a private network)';
  if (url.protocol !== 'https:') {
    problems.push(`SITE_URL: must be an https:// address in production${override}`);
  }
  if (LOCAL_HOST.test(url.hostname)) {
    problems.push(
      `SITE_URL: must be the site's public address in production, not ${url.hostname}${override}`,
    );
  }
  return problems;
}

/** Reads and validates the environment. Throws a `ConfigError` naming every bad variable. */
export function parseConfig(env: NodeJS.ProcessEnv): AppConfig {
  // A plain copy: process.env is an object of its own kind, which TypeBox's codecs pass over.
  const parsed = readBySchema(envSchema, { ...env }, { whole: 'environment' });
  if (!parsed.ok) {
    throw new ConfigError(parsed.problems.map(({ field, message }) => `${field}: ${message}`));
  }
  const e = parsed.value;
  const problems: string[] = [];

  if (e.NODE_ENV === 'production') {
    problems.push(...siteUrlProblems(e.SITE_URL, e.ALLOW_INSECURE_SITE_URL ?? false));
    if (!e.DATABASE_URL) problems.push('DATABASE_URL: is required in production');
    if (!e.SESSION_SECRET) problems.push('SESSION_SECRET: is required in production');
    if (e.OUTBOUND_ALLOW_PRIVATE === 'on') {
      problems.push(
        'OUTBOUND_ALLOW_PRIVATE: must be off in production: it lets anyone who writes a post make the server read addresses on its own network (it is for tests on one machine)',
      );
    }
    // Without it, password-reset and confirmation mails would only reach the log: users would
    // never get them, and the log would hold their links.
    if (!e.SMTP_URL && e.MAIL_TRANSPORT !== 'log') {
      problems.push(
        'SMTP_URL: is required in production (set MAIL_TRANSPORT=log to print mail to the log instead)',
      );
    }
  }
  for (const email of e.EDITOR_EMAILS.filter((editor) => e.STAFF_EMAILS.includes(editor))) {
    problems.push(
      `EDITOR_EMAILS: ${email} is in STAFF_EMAILS too; name each staff member in one of them`,
    );
  }
  for (const email of e.WRITER_EMAILS) {
    const other = e.STAFF_EMAILS.includes(email)
      ? 'STAFF_EMAILS'
      : e.EDITOR_EMAILS.includes(email)
        ? 'EDITOR_EMAILS'
        : null;
    if (other) {
      problems.push(
        `WRITER_EMAILS: ${email} is in ${other} too; name each staff member in one of them`,
      );
    }
  }
  if (e.MAIL_TRANSPORT === 'smtp' && !e.SMTP_URL) {
    problems.push('SMTP_URL: is required when MAIL_TRANSPORT=smtp');
  }

  const stripeKeys = {
    STRIPE_SECRET_KEY: e.STRIPE_SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: e.STRIPE_PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: e.STRIPE_WEBHOOK_SECRET,
  };
  const setKeys = Object.entries(stripeKeys).filter(([, value]) => value !== undefined);
  if (setKeys.length > 0 && setKeys.length < 3) {
    for (const [name, value] of Object.entries(stripeKeys)) {
      if (value === undefined) {
        problems.push(`${name}: is required when any Stripe key is set (payments need all three)`);
      }
    }
  }
  const warnings: string[] = [];
  if (e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_WEBHOOK_SECRET) {
    const keyProblems = stripeKeyProblems({
      STRIPE_SECRET_KEY: e.STRIPE_SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY: e.STRIPE_PUBLISHABLE_KEY,
      STRIPE_WEBHOOK_SECRET: e.STRIPE_WEBHOOK_SECRET,
      STRIPE_PRICE_ID: e.STRIPE_PRICE_ID,
    });
    // In production a visitor would be the first to find out: refuse to start.
    if (e.NODE_ENV === 'production') problems.push(...keyProblems);
    else warnings.push(...keyProblems);
  }
  const s3 = {
    S3_ENDPOINT: e.S3_ENDPOINT,
    S3_BUCKET: e.S3_BUCKET,
    S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY,
  };
  const setS3 = Object.values(s3).filter((value) => value !== undefined);
  if (setS3.length > 0 && setS3.length < 4) {
    for (const [name, value] of Object.entries(s3)) {
      if (value === undefined) {
        problems.push(`${name}: is required when any S3_ setting is set (images need all four)`);
      }
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    env: e.NODE_ENV,
    // Every interface only when told (the image sets HOST=0.0.0.0 inside its own network).
    host: e.HOST ?? '127.0.0.1',
    port: e.PORT,
    siteUrl: e.SITE_URL.replace(/\/+$/, ''),
    siteName: e.SITE_NAME,
    siteNameSet: (env.SITE_NAME ?? '').trim() !== '',
    sampleContent: e.SAMPLE_CONTENT === 'on',
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    sessionSecret: e.SESSION_SECRET,
    sessionSecretPrevious: e.SESSION_SECRET_PREVIOUS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    limits: limitsWith({
      session: e.SESSION_RATE_LIMIT,
      login: e.LOGIN_RATE_LIMIT,
      account: e.ACCOUNT_RATE_LIMIT,
      newsletter: e.NEWSLETTER_RATE_LIMIT,
      events: e.EVENTS_RATE_LIMIT,
    }),
    newsletterConnections: e.NEWSLETTER_SMTP_CONNECTIONS,
    newsletterTracking: e.NEWSLETTER_TRACKING === 'on',
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            priceId: e.STRIPE_PRICE_ID,
            apiUrl: e.STRIPE_API_URL,
            timeoutMs: e.STRIPE_TIMEOUT_MS,
          }
        : null,
    membership: {
      priceCents: e.MEMBERSHIP_PRICE_CENTS,
      monthlyPriceCents: e.MONTHLY_PRICE_CENTS,
      currency: e.MEMBERSHIP_CURRENCY,
      graceDays: e.MEMBERSHIP_GRACE_DAYS,
    },
    paywallDelayMs: e.PAYWALL_DELAY_MS,
    social: e.SOCIAL_URL ? { url: e.SOCIAL_URL, label: socialLinkLabel(e.SOCIAL_URL) } : null,
    smtpUrl: e.MAIL_TRANSPORT === 'log' ? undefined : e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? senderNamed(e.SITE_NAME),
    mailFromSet: e.MAIL_FROM !== undefined,
    redisUrl: e.REDIS_URL,
    staff: { owners: e.STAFF_EMAILS, editors: e.EDITOR_EMAILS, writers: e.WRITER_EMAILS },
    metricsToken: e.METRICS_TOKEN,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    uploads: {
      dir: e.UPLOADS_DIR ?? join(e.DATA_DIR, 'uploads'),
      maxBytes: e.UPLOAD_MAX_MB * 1024 * 1024,
      audioMaxBytes: e.AUDIO_MAX_MB * 1024 * 1024,
      videoMaxBytes: e.VIDEO_MAX_MB * 1024 * 1024,
      s3:
        e.S3_ENDPOINT && e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
          ? {
              endpoint: e.S3_ENDPOINT,
              bucket: e.S3_BUCKET,
              region: e.S3_REGION ?? 'us-east-1',
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            }
          : null,
    },
    importMaxBytes: e.IMPORT_MAX_MB * 1024 * 1024,
    migrateOnStart: e.MIGRATE_ON_START ?? true,
    comments: { who: e.COMMENTS, holdFirstLink: e.COMMENTS_HOLD_FIRST_LINK === 'on' },
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE === 'on',
    outboundAllowPrivate: e.OUTBOUND_ALLOW_PRIVATE === 'on',
    warnings,
  };
}

/** Networks a reader knows by name; any other host is just "Social". */
const SOCIAL_NETWORKS: Record<string, string> = {
  'instagram.com': 'Instagram',
  'tiktok.com': 'TikTok',
  'youtube.com': 'YouTube',
  'facebook.com': 'Facebook',
  'threads.net': 'Threads',
  'threads.com': 'Threads',
  'x.com': 'X',
  'twitter.com': 'X',
  'bsky.app': 'Bluesky',
  'linkedin.com': 'LinkedIn',
};

/** The link's name, from its host: `https://www.instagram.com/cohort` reads "Instagram". */
export function socialLinkLabel(url: string): string {
  const host = new URL(url).hostname.replace(/^(www|m)\./, '');
  return SOCIAL_NETWORKS[host] ?? 'Social';
}

/**
 * `TRUST_PROXY` unset: trust only a proxy on the loopback interface (nginx on the same host or in
 * the same network namespace). `true`/`false`, or a comma-separated list of addresses and CIDRs.
 */
function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined) return 'loopback';
  return readBooleanText(value) ?? value;
}
