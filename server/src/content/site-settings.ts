import type pg from 'pg';
import type { SiteSettingsPatch } from '../../../contract/site-settings-api.js';
import type { SiteSettings } from '../../../contract/site-settings.js';
import { withTransaction, type Tx } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';
import { contentChanged } from './content-changes.js';
import { requireKnownHomeParts } from './home-settings.js';

/**
 * The publication's own identity and look (contract/site-settings.ts, decision 26): one row of
 * `site_settings`, made at the first start from the environment (SITE_NAME, SOCIAL_URL), then the
 * owners' from the desk. A change is audited and bumps the content generation in one transaction,
 * so every app server draws it within a second (site-content-plugin.ts reads it with the posts).
 */

type Db = Pick<pg.Pool, 'query'>;

/** What the first start takes from the environment: afterwards the desk's settings rule. */
export interface SettingsSeed {
  title: string;
  /** SOCIAL_URL: the one social link the site had before it had settings. */
  social?: { url: string; label: string } | null;
}

/** The settings of a site that has none yet: its name and nothing of any other publication. */
export function defaultSiteSettings(seed: SettingsSeed = { title: 'Cohort' }): SiteSettings {
  return {
    title: seed.title,
    description: '',
    language: 'en',
    timezone: 'UTC',
    logo: null,
    icon: null,
    coverImage: null,
    accentColor: '#f5c542',
    footerText: '',
    signupText: '',
    socialLinks: seed.social ? [{ label: seed.social.label, url: seed.social.url }] : [],
    colorScheme: 'light',
    fonts: 'system',
    customCss: '',
    // Never chosen: every section in the menu, in its order, with no hero and nothing pinned.
    home: { hero: null, sections: null, featured: [], layout: 'grid' },
  };
}

/**
 * Makes the settings row at the first start, from `seed` and `initial` (the sample site's own
 * settings where samples are loaded); a row already there is left as it is.
 */
export async function ensureSiteSettings(
  db: Db,
  seed: SettingsSeed,
  initial: Partial<SiteSettings> = {},
): Promise<void> {
  await db.query(
    `INSERT INTO "site_settings" ("id", "settings") VALUES (1, $1::jsonb)
      ON CONFLICT ("id") DO NOTHING`,
    [JSON.stringify({ ...defaultSiteSettings(seed), ...initial })],
  );
}

/**
 * The settings as stored, any setting added since the row was written at its default: a site is
 * never drawn from half a document.
 */
export async function readSiteSettings(db: Db, seed?: SettingsSeed): Promise<SiteSettings> {
  const { rows } = await db.query<{ settings: Partial<SiteSettings> }>(
    `SELECT "settings" FROM "site_settings" WHERE "id" = 1`,
  );
  return { ...defaultSiteSettings(seed), ...rows[0]?.settings };
}

/** Changes what `patch` names (`home` as a whole), audited; answers the settings now. */
export async function changeSiteSettings(
  pool: pg.Pool,
  actor: Pick<Staff, 'userId' | 'email'>,
  patch: SiteSettingsPatch,
): Promise<{ settings: SiteSettings; generation: number }> {
  requireKnownLanguage(patch.language);
  requireKnownTimezone(patch.timezone);
  return withTransaction(pool, async (tx) => {
    await requireKnownHomeParts(tx, patch.home);
    const before = await lockSettings(tx);
    const settings: SiteSettings = { ...before, ...patch };
    await tx.query(
      `UPDATE "site_settings" SET "settings" = $1::jsonb, "updatedAt" = now() WHERE "id" = 1`,
      [JSON.stringify(settings)],
    );
    const changed = Object.keys(patch) as (keyof SiteSettings)[];
    await writeAudit(tx, actor, {
      action: 'settings_change',
      targetUserId: null,
      before: Object.fromEntries(changed.map((key) => [key, before[key]])),
      after: Object.fromEntries(changed.map((key) => [key, settings[key]])),
    });
    return { settings, generation: await contentChanged(tx) };
  });
}

/**
 * A section's address changed from `from` to `to`, or the section went (`to` null): the home
 * page's chosen sections (`home.sections`) follow in the same transaction, so the list the desk
 * shows and sends back names only sections there are. Nothing changes when it does not name it.
 */
export async function replaceHomeSection(tx: Tx, from: string, to: string | null): Promise<void> {
  const listed = (await lockSettings(tx)).home.sections;
  if (!listed?.includes(from)) return;
  const sections = [
    ...new Set(listed.flatMap((slug) => (slug !== from ? [slug] : to === null ? [] : [to]))),
  ];
  await tx.query(
    `UPDATE "site_settings" SET "settings" = jsonb_set("settings", '{home,sections}', $1::jsonb),
        "updatedAt" = now()
      WHERE "id" = 1`,
    [JSON.stringify(sections)],
  );
}

/** The row, locked for this transaction's change (made now if the first start has not yet). */
async function lockSettings(tx: Tx): Promise<SiteSettings> {
  await tx.query(
    `INSERT INTO "site_settings" ("id", "settings") VALUES (1, $1::jsonb)
      ON CONFLICT ("id") DO NOTHING`,
    [JSON.stringify(defaultSiteSettings())],
  );
  const { rows } = await tx.query<{ settings: Partial<SiteSettings> }>(
    `SELECT "settings" FROM "site_settings" WHERE "id" = 1 FOR UPDATE`,
  );
  return { ...defaultSiteSettings(), ...rows[0]?.settings };
}

function requireKnownLanguage(language: string | undefined) {
  if (language === undefined) return;
  try {
    if (Intl.getCanonicalLocales(language).length === 1) return;
  } catch {
    // Not a well-formed tag: refused below.
  }
  throw new DomainError(400, 'invalid_settings', `language ${language} is not a language tag.`);
}

function requireKnownTimezone(timezone: string | undefined) {
  if (timezone === undefined) return;
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return;
  } catch {
    throw new DomainError(
      400,
      'invalid_settings',
      `timezone ${timezone} is not a time zone (such as Europe/Paris or America/New_York).`,
    );
  }
}
