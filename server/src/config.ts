import { join } from 'node:path';
import { z } from 'zod';
import { isValidEmail, normalizeEmail } from '../../contract/account-rules.js';
import { stripeKeyProblems } from './stripe/key-check.js';
import type { S3Options } from './uploads/image-store.js';

/** Typed configuration, read from the environment once at start-up. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  siteUrl: string;
  siteName: string;
  logLevel: string;
  /** `undefined` means: start the embedded database under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** `undefined` means: generate one into `dataDir` (never in production). */
  sessionSecret: string | undefined;
  sessionSecretPrevious: string | undefined;
  trustProxy: boolean | string;
  /** POST /api/session requests per client IP per minute. */
  sessionRateLimit: number;
  /** Sign-in attempts per client IP per minute. */
  loginRateLimit: number;
  /** Registrations, password and email changes, deletions per client IP per 10 minutes. */
  accountRateLimit: number;
  /** Newsletter sign-ups per client IP per 10 minutes. */
  newsletterRateLimit: number;
  /** SMTP connections a newsletter send keeps open (and mails in flight). */
  newsletterConnections: number;
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
  mailFrom: string;
  redisUrl: string | undefined;
  /** Who may open the publisher's desk (/desk): registered accounts by email. */
  staff: StaffConfig;
  /** The bearer token for GET /metrics; undefined = metrics off. */
  metricsToken: string | undefined;
  /** The most database connections this process opens. */
  databasePoolSize: number;
  /** Uploaded images (decision note 0017): where they are kept, and the largest file taken. */
  uploads: { dir: string; maxBytes: number; s3: S3Options | null };
  /** The largest export file the desk's Import page takes (IMPORT_MAX_MB), in bytes. */
  importMaxBytes: number;
  /** Apply pending migrations at start (true), or only check that none is pending (false). */
  migrateOnStart: boolean;
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

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

const httpsUrl = z.url({ protocol: /^https$/, error: 'must be an https:// URL' });

const integer = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

/** A comma-separated list of account emails, each normalised as registration does. */
const emailList = z
  .string()
  .optional()
  .transform((value, context) => {
    const emails = (value ?? '')
      .split(',')
      .map((email) => normalizeEmail(email))
      .filter((email) => email !== '');
    for (const email of emails) {
      if (!isValidEmail(email)) {
        context.addIssue({ code: 'custom', message: `${email} is not an email address` });
      }
    }
    return [...new Set(emails)];
  });

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => ['true', '1', 'yes'].includes(value));

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: optionalText,
  PORT: integer(0, 65535).default(3000),
  SITE_URL: httpUrl.default('http://localhost:3000'),
  SITE_NAME: z.string().trim().min(1).default('Cohort'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
      .optional(),
  ),
  DATA_DIR: z.string().trim().min(1).default('data'),
  SESSION_SECRET: optionalText.pipe(
    z.string().min(32, 'must be at least 32 characters (try: openssl rand -hex 32)').optional(),
  ),
  SESSION_SECRET_PREVIOUS: optionalText.pipe(
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  TRUST_PROXY: optionalText,
  SESSION_RATE_LIMIT: integer(1, 100_000).default(60),
  LOGIN_RATE_LIMIT: integer(1, 100_000).default(10),
  ACCOUNT_RATE_LIMIT: integer(1, 100_000).default(10),
  NEWSLETTER_RATE_LIMIT: integer(1, 100_000).default(10),
  NEWSLETTER_SMTP_CONNECTIONS: integer(1, 50).default(5),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_PRICE_ID: optionalText,
  STRIPE_API_URL: optionalText.pipe(httpUrl.optional()),
  STRIPE_TIMEOUT_MS: integer(100, 120_000).default(7_000),
  MEMBERSHIP_PRICE_CENTS: integer(50, 99_999_999).default(1200),
  MONTHLY_PRICE_CENTS: integer(50, 99_999_999).default(100),
  MEMBERSHIP_CURRENCY: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{3}$/, 'must be a three-letter ISO currency code such as usd')
    .default('usd'),
  MEMBERSHIP_GRACE_DAYS: integer(0, 60).default(7),
  PAYWALL_DELAY_MS: integer(0, 86_400_000).default(30_000),
  SOCIAL_URL: optionalText.pipe(httpsUrl.optional()),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  // Unset: mail comes from the site's name (SITE_NAME) at no-reply@localhost.
  MAIL_FROM: z.string().trim().min(3).optional(),
  MAIL_TRANSPORT: optionalText.pipe(z.enum(['smtp', 'log']).optional()),
  REDIS_URL: optionalText.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
  ),
  STAFF_EMAILS: emailList,
  EDITOR_EMAILS: emailList,
  WRITER_EMAILS: emailList,
  METRICS_TOKEN: optionalText.pipe(
    z.string().min(16, 'must be at least 16 characters (try: openssl rand -hex 24)').optional(),
  ),
  DATABASE_POOL_SIZE: integer(1, 1_000).default(10),
  /** Uploaded images' folder; DATA_DIR/uploads unless set. */
  UPLOADS_DIR: optionalText,
  /** An S3-compatible bucket for the uploaded images instead of the folder (several machines). */
  S3_ENDPOINT: optionalText.pipe(httpUrl.optional()),
  S3_BUCKET: optionalText,
  S3_REGION: optionalText,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** The largest image file the desk takes, in megabytes. */
  UPLOAD_MAX_MB: integer(1, 200).default(20),
  /** The largest export file (a Ghost zip with its images…) the desk's Import page takes, in MB. */
  IMPORT_MAX_MB: integer(1, 2048).default(200),
  MIGRATE_ON_START: optionalText.pipe(booleanText.optional()),
  ALLOW_INSECURE_SITE_URL: optionalText.pipe(booleanText.optional()),
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
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];

  if (e.NODE_ENV === 'production') {
    problems.push(...siteUrlProblems(e.SITE_URL, e.ALLOW_INSECURE_SITE_URL ?? false));
    if (!e.DATABASE_URL) problems.push('DATABASE_URL: is required in production');
    if (!e.SESSION_SECRET) problems.push('SESSION_SECRET: is required in production');
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
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    sessionSecret: e.SESSION_SECRET,
    sessionSecretPrevious: e.SESSION_SECRET_PREVIOUS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    sessionRateLimit: e.SESSION_RATE_LIMIT,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    accountRateLimit: e.ACCOUNT_RATE_LIMIT,
    newsletterRateLimit: e.NEWSLETTER_RATE_LIMIT,
    newsletterConnections: e.NEWSLETTER_SMTP_CONNECTIONS,
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
    mailFrom: e.MAIL_FROM ?? `"${e.SITE_NAME.replace(/["\\]/g, '\\$&')}" <no-reply@localhost>`,
    redisUrl: e.REDIS_URL,
    staff: { owners: e.STAFF_EMAILS, editors: e.EDITOR_EMAILS, writers: e.WRITER_EMAILS },
    metricsToken: e.METRICS_TOKEN,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    uploads: {
      dir: e.UPLOADS_DIR ?? join(e.DATA_DIR, 'uploads'),
      maxBytes: e.UPLOAD_MAX_MB * 1024 * 1024,
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
  const result = booleanText.safeParse(value);
  return result.success ? result.data : value;
}
