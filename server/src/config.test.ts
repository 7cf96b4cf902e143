import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.js';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration from the environment', () => {
  it('runs with no variables at all, using the documented defaults', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      siteUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      sessionSecret: undefined,
      stripe: null,
      membership: { priceCents: 1200, currency: 'usd', graceDays: 7 },
      paywallDelayMs: 30_000,
      social: null,
      // The desk's Import page takes 200 MB: a 500 MB upload is refused before it is read.
      importMaxBytes: 200 * 1024 * 1024,
    });
  });

  it('takes audio up to AUDIO_MAX_MB (200) and video up to VIDEO_MAX_MB (500), whole megabytes to 2048', () => {
    expect(parseConfig({}).uploads).toMatchObject({
      maxBytes: 20 * 1024 * 1024,
      audioMaxBytes: 200 * 1024 * 1024,
      videoMaxBytes: 500 * 1024 * 1024,
    });
    expect(parseConfig({ AUDIO_MAX_MB: '50', VIDEO_MAX_MB: '2048' }).uploads).toMatchObject({
      audioMaxBytes: 50 * 1024 * 1024,
      videoMaxBytes: 2048 * 1024 * 1024,
    });
    expect(problemsOf({ AUDIO_MAX_MB: '0', VIDEO_MAX_MB: '4096' })).toEqual([
      'AUDIO_MAX_MB: must be at least 1',
      'VIDEO_MAX_MB: must be at most 2048',
    ]);
  });

  it('names the site after SITE_NAME in the sender of its mail unless MAIL_FROM says otherwise', () => {
    expect(parseConfig({}).mailFrom).toBe('"Cohort" <no-reply@localhost>');
    expect(parseConfig({ SITE_NAME: 'Fish & Chips "Co-op"' }).mailFrom).toBe(
      '"Fish & Chips \\"Co-op\\"" <no-reply@localhost>',
    );
    expect(
      parseConfig({ SITE_NAME: 'Tidewater Press', MAIL_FROM: 'News <news@tidewater.example>' })
        .mailFrom,
    ).toBe('News <news@tidewater.example>');
  });

  it('reads the desk’s staff as account emails, normalised, and no one staff unless named', () => {
    expect(parseConfig({}).staff).toEqual({ owners: [], editors: [], writers: [] });
    expect(
      parseConfig({
        STAFF_EMAILS: ' Owner@Example.com, second@example.com ,',
        EDITOR_EMAILS: 'editor@example.com',
        WRITER_EMAILS: 'Writer@Example.com',
      }).staff,
    ).toEqual({
      owners: ['owner@example.com', 'second@example.com'],
      editors: ['editor@example.com'],
      writers: ['writer@example.com'],
    });
    expect(problemsOf({ STAFF_EMAILS: 'owner@example.com, not-an-email' })).toEqual([
      'STAFF_EMAILS: not-an-email is not an email address',
    ]);
    expect(
      problemsOf({ STAFF_EMAILS: 'both@example.com', EDITOR_EMAILS: 'Both@example.com' }),
    ).toEqual([
      'EDITOR_EMAILS: both@example.com is in STAFF_EMAILS too; name each staff member in one of them',
    ]);
    expect(
      problemsOf({ EDITOR_EMAILS: 'both@example.com', WRITER_EMAILS: 'both@example.com' }),
    ).toEqual([
      'WRITER_EMAILS: both@example.com is in EDITOR_EMAILS too; name each staff member in one of them',
    ]);
  });

  it('names the social link by its host, and takes only an https address', () => {
    expect(parseConfig({ SOCIAL_URL: 'https://www.instagram.com/cohort.site/' }).social).toEqual({
      url: 'https://www.instagram.com/cohort.site/',
      label: 'Instagram',
    });
    expect(parseConfig({ SOCIAL_URL: 'https://www.tiktok.com/@cohort' }).social?.label).toBe(
      'TikTok',
    );
    expect(parseConfig({ SOCIAL_URL: 'https://mastodon.social/@cohort' }).social?.label).toBe(
      'Social',
    );
    expect(parseConfig({ SOCIAL_URL: '' }).social).toBeNull();
    expect(problemsOf({ SOCIAL_URL: 'http://instagram.com/cohort' })).toEqual([
      'SOCIAL_URL: must be an https:// URL',
    ]);
    expect(problemsOf({ SOCIAL_URL: 'instagram' })).toEqual([
      'SOCIAL_URL: must be an https:// URL',
    ]);
  });

  it('names the variable and the problem when a value is bad', () => {
    expect(problemsOf({ PORT: 'eighty' })).toEqual(['PORT: must be a whole number']);
    expect(problemsOf({ SITE_URL: 'ftp://example.com' })).toEqual([
      'SITE_URL: must be an http:// or https:// URL',
    ]);
    expect(problemsOf({ MEMBERSHIP_CURRENCY: 'dollars' })[0]).toMatch(/^MEMBERSHIP_CURRENCY: /);
    expect(problemsOf({ SESSION_SECRET: 'short' })[0]).toMatch(
      /^SESSION_SECRET: must be at least 32/,
    );
  });

  it('reports every bad variable at once', () => {
    expect(problemsOf({ PORT: '-1', PAYWALL_DELAY_MS: 'soon' })).toHaveLength(2);
  });

  it('requires DATABASE_URL, SESSION_SECRET and an SMTP server in production', () => {
    expect(problemsOf({ NODE_ENV: 'production', SITE_URL: 'https://cohort.example' })).toEqual([
      'DATABASE_URL: is required in production',
      'SESSION_SECRET: is required in production',
      'SMTP_URL: is required in production (set MAIL_TRANSPORT=log to print mail to the log instead)',
    ]);
  });

  it('prints mail to the log in production only when MAIL_TRANSPORT=log says it is meant', () => {
    const production = {
      NODE_ENV: 'production',
      SITE_URL: 'https://cohort.example',
      DATABASE_URL: 'postgresql://db/cohort',
      SESSION_SECRET: 'x'.repeat(32),
    };
    expect(parseConfig({ ...production, MAIL_TRANSPORT: 'log' }).smtpUrl).toBeUndefined();
    expect(
      parseConfig({ ...production, MAIL_TRANSPORT: 'log', SMTP_URL: 'smtp://mail:25' }).smtpUrl,
    ).toBeUndefined();
    expect(parseConfig({ ...production, SMTP_URL: 'smtp://mail:25' }).smtpUrl).toBe(
      'smtp://mail:25',
    );
    expect(problemsOf({ MAIL_TRANSPORT: 'smtp' })).toEqual([
      'SMTP_URL: is required when MAIL_TRANSPORT=smtp',
    ]);
    expect(problemsOf({ MAIL_TRANSPORT: 'pigeon' })[0]).toMatch(/^MAIL_TRANSPORT: /);
  });

  it('listens on the loopback interface unless HOST says otherwise, in production too', () => {
    expect(parseConfig({}).host).toBe('127.0.0.1');
    expect(
      parseConfig({
        NODE_ENV: 'production',
        SITE_URL: 'https://cohort.example',
        DATABASE_URL: 'postgresql://db/cohort',
        SESSION_SECRET: 'x'.repeat(32),
        SMTP_URL: 'smtp://mail:25',
      }).host,
    ).toBe('127.0.0.1');
    expect(parseConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('turns payments on only when all three Stripe keys are set, and says which one is missing', () => {
    expect(
      problemsOf({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1' }),
    ).toEqual([
      'STRIPE_WEBHOOK_SECRET: is required when any Stripe key is set (payments need all three)',
    ]);
    const config = parseConfig({
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
    });
    expect(config.stripe).toMatchObject({ secretKey: 'sk_test_1', publishableKey: 'pk_test_1' });
  });

  it('treats empty variables, as an .env file leaves them, as unset', () => {
    expect(parseConfig({ DATABASE_URL: '', STRIPE_SECRET_KEY: '' })).toMatchObject({
      databaseUrl: undefined,
      stripe: null,
    });
  });

  it('refuses in production a SITE_URL that is not https or names this machine, unless told it is meant', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://db/cohort',
      SESSION_SECRET: 'x'.repeat(32),
      SMTP_URL: 'smtp://mail:25',
    };
    // The default, and .env.example's old one.
    expect(problemsOf(production)).toEqual([
      'SITE_URL: must be an https:// address in production (ALLOW_INSECURE_SITE_URL=true allows it on a private network)',
      "SITE_URL: must be the site's public address in production, not localhost (ALLOW_INSECURE_SITE_URL=true allows it on a private network)",
    ]);
    expect(problemsOf({ ...production, SITE_URL: 'http://cohort.example' })).toEqual([
      'SITE_URL: must be an https:// address in production (ALLOW_INSECURE_SITE_URL=true allows it on a private network)',
    ]);
    for (const local of ['https://localhost', 'https://127.0.0.1:8443', 'https://[::1]']) {
      expect(problemsOf({ ...production, SITE_URL: local }), local).toHaveLength(1);
    }
    expect(parseConfig({ ...production, SITE_URL: 'https://cohort.example' }).siteUrl).toBe(
      'https://cohort.example',
    );
    const privateNetwork = { ...production, SITE_URL: 'http://10.0.0.5:8080' };
    expect(parseConfig({ ...privateNetwork, ALLOW_INSECURE_SITE_URL: 'true' }).siteUrl).toBe(
      'http://10.0.0.5:8080',
    );
    // Development keeps its localhost default.
    expect(parseConfig({}).siteUrl).toBe('http://localhost:3000');
  });

  it('reads the pool size, the metrics token and whether to migrate at start', () => {
    expect(parseConfig({})).toMatchObject({
      databasePoolSize: 10,
      metricsToken: undefined,
      migrateOnStart: true,
    });
    expect(
      parseConfig({
        DATABASE_POOL_SIZE: '4',
        METRICS_TOKEN: 'a'.repeat(24),
        MIGRATE_ON_START: 'false',
      }),
    ).toMatchObject({ databasePoolSize: 4, metricsToken: 'a'.repeat(24), migrateOnStart: false });
    expect(problemsOf({ DATABASE_POOL_SIZE: '0' })[0]).toMatch(/^DATABASE_POOL_SIZE: /);
    expect(problemsOf({ METRICS_TOKEN: 'short' })[0]).toMatch(
      /^METRICS_TOKEN: must be at least 16/,
    );
    expect(problemsOf({ MIGRATE_ON_START: 'maybe' })[0]).toMatch(/^MIGRATE_ON_START: /);
  });

  it('reads numbers, yes and no, currency codes and address lists as their text says them', () => {
    expect(
      parseConfig({
        PORT: ' 8080 ',
        MIGRATE_ON_START: 'no',
        MEMBERSHIP_CURRENCY: ' EUR ',
        TRUST_PROXY: 'yes',
        STAFF_EMAILS: 'a@example.com,A@Example.com',
      }),
    ).toMatchObject({
      port: 8080,
      migrateOnStart: false,
      membership: { currency: 'eur' },
      trustProxy: true,
      staff: { owners: ['a@example.com'] },
    });
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toBe('10.0.0.0/8');
    // process.env itself, as the server passes it: not a plain object.
    const fromProcess = parseConfig(process.env);
    expect(typeof fromProcess.port).toBe('number');
    expect(Array.isArray(fromProcess.staff.editors)).toBe(true);
    expect(problemsOf({ PORT: '80.5', MIGRATE_ON_START: 'TRUE' })).toEqual([
      'PORT: must be a whole number',
      'MIGRATE_ON_START: must be true or false',
    ]);
    expect(problemsOf({ PORT: '70000', SITE_NAME: '  ' })).toEqual([
      'PORT: must be at most 65535',
      'SITE_NAME: must not be empty',
    ]);
  });

  it('drops a trailing slash from SITE_URL so return addresses join cleanly', () => {
    expect(parseConfig({ SITE_URL: 'https://cohort.example/' }).siteUrl).toBe(
      'https://cohort.example',
    );
  });
});

describe('Stripe keys at start-up', () => {
  const keys = {
    STRIPE_SECRET_KEY: 'sk_test_51abcDEF',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_51abcDEF',
    STRIPE_WEBHOOK_SECRET: 'whsec_abcDEF123',
  };
  const production = {
    NODE_ENV: 'production',
    SITE_URL: 'https://cohort.example',
    DATABASE_URL: 'postgresql://db/cohort',
    SESSION_SECRET: 'x'.repeat(32),
    SMTP_URL: 'smtp://mail:25',
  };

  it('accepts keys of one mode, restricted keys included', () => {
    expect(parseConfig({ ...production, ...keys }).warnings).toEqual([]);
    expect(
      parseConfig({
        ...production,
        STRIPE_SECRET_KEY: 'rk_live_51abc',
        STRIPE_PUBLISHABLE_KEY: 'pk_live_51abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      }).stripe,
    ).not.toBeNull();
  });

  it('refuses to start in production with test and live keys mixed, naming the variable', () => {
    expect(problemsOf({ ...production, ...keys, STRIPE_PUBLISHABLE_KEY: 'pk_live_51abc' })).toEqual(
      [
        'STRIPE_PUBLISHABLE_KEY: is a live key but STRIPE_SECRET_KEY is a test key; use both keys of the same mode',
      ],
    );
  });

  it('refuses to start in production with keys that are not Stripe’s shapes', () => {
    const problems = problemsOf({
      ...production,
      STRIPE_SECRET_KEY: 'pk_test_51abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_51abc',
      STRIPE_WEBHOOK_SECRET: 'not-a-signing-secret',
      STRIPE_PRICE_ID: 'prod_123',
    });
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'STRIPE_PRICE_ID',
    ]);
  });

  it('only warns outside production', () => {
    const config = parseConfig({ ...keys, STRIPE_WEBHOOK_SECRET: 'abc123' });
    expect(config.stripe).not.toBeNull();
    expect(config.warnings).toEqual([expect.stringMatching(/^STRIPE_WEBHOOK_SECRET: /)]);
  });

  it('bounds the whole Stripe call by STRIPE_TIMEOUT_MS, 7 s unless set', () => {
    expect(parseConfig(keys).stripe?.timeoutMs).toBe(7_000);
  });
});
