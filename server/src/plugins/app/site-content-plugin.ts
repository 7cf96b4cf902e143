import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Perk } from '../../../../contract/perks.js';
import { CONTENT_CHANNEL, readContentGeneration } from '../../content/content-changes.js';
import { readPostAddresses } from '../../content/post-addresses.js';
import type { PostRow } from '../../content/post-row.js';
import { readPublishedPosts } from '../../content/published-content.js';
import { createPostSchedule, type PostSchedule } from '../../content/post-schedule.js';
import { publishDuePosts } from '../../content/post-publishing.js';
import { seedPosts } from '../../content/seed.js';
import { readSampleSettings, samplesLoaded, startSamples } from '../../content/sample-content.js';
import { fillSiteClaims, type SiteFacts } from '../../content/site-claims.js';
import { createSiteContent, type SiteContent } from '../../content/site-content.js';
import { readTopicDescriptions } from '../../content/topic-store.js';
import { readTiers, tierNames } from '../../memberships/tier-catalog.js';
import { readSectionsData } from '../../content/section-store.js';
import {
  ensureSiteSettings,
  readSiteSettings,
  type SettingsSeed,
} from '../../content/site-settings.js';
import { waitForAnnouncedChanges } from './content-waits.js';
import { listenForChanges } from './listen-for-changes.js';

declare module 'fastify' {
  interface FastifyInstance {
    siteContent: SiteContentSource;
    /** Scheduled posts' jobs (content/post-schedule.ts). */
    postSchedule: PostSchedule;
  }
}

export interface SiteContentSource {
  /** What is published now (after the app is ready). */
  current(): SiteContent;
  /**
   * Resolves once the site is drawn from `generation` or a later one, reading the content again
   * at once if it is behind: what the answer of a route that made a change waits for
   * (content-waits.ts). Null (the change showed nothing new on the site): at once.
   */
  waitFor(generation: number | null): Promise<void>;
  /**
   * Reads the content again now, whatever the generation: when time changed it (a scheduled
   * post's time came) rather than a write, or after rows written by hand.
   */
  refresh(): Promise<void>;
  /** Called with the new content after each refresh. */
  onChange(listener: (content: SiteContent) => void): void;
  /** What would be published with this post as given (the desk's preview); changes nothing. */
  preview(post: PostRow): Promise<SiteContent>;
}

export interface SiteContentOptions {
  /** The shipped content/ folder, imported once into an empty site; null: none (tests). */
  seedDir: string | null;
  perks: readonly Perk[];
  /** What the first start makes the site's settings from (SITE_NAME, SOCIAL_URL). */
  settingsSeed: SettingsSeed;
  /**
   * A new site loads the sample content (SAMPLE_CONTENT): the posts of `seedDir`, its sample
   * settings, the sample perks and sections; `titleSet`: SITE_NAME wins over the sample title.
   */
  samples: { load: boolean; titleSet: boolean };
  /** What the site does, which pages may state (site-claims.ts): NEWSLETTER_TRACKING… */
  facts: SiteFacts;
  /** The site's stylesheets, built then source: the web manifest's colours come from the first there. */
  cssFiles: string[];
}

/** How often a server that cannot LISTEN (behind PgBouncer) asks for the content generation. */
export const POLL_MS = 1_000;

/**
 * The published content the site is drawn from (docs/decisions/0016-content-at-run-time.md), read
 * at start with the content generation it was drawn from, and again whenever the database's
 * generation is another one (docs/decisions/0021-content-generation.md): every change says so in
 * its own transaction (contentChanged), which bumps the generation and NOTIFYs it on
 * CONTENT_CHANNEL. A server LISTENs for it, or, where LISTEN is not possible (PgBouncer's
 * transaction pooling), reads the generation every second. A scheduled post going live is a
 * change too: a timer reads the content again at the next one's time.
 */
export default fp(
  async function siteContent(app: FastifyInstance, options: SiteContentOptions) {
    let content: SiteContent | null = null;
    /** The generation `content` was drawn from; -1 before the first read. */
    let held = -1;
    const listeners: ((content: SiteContent) => void)[] = [];
    let nextLive: NodeJS.Timeout | undefined;
    let closed = false;

    const css = await readSiteCss(options.cssFiles);
    async function read(): Promise<SiteContent> {
      // The generation before the rows: the rows are then at least that new, so a change that
      // commits in between makes the next check read again rather than go unseen.
      const generation = await readContentGeneration(app.db.pool);
      const next = await draw();
      content = next;
      held = generation;
      for (const listener of listeners) listener(next);
      await scheduleNextLive();
      return next;
    }

    /** The site as the database holds it now; with `post`, as if it were published as given. */
    async function draw(post?: PostRow): Promise<SiteContent> {
      const [posts, addresses, descriptions, sections, settings, loaded, tiers] = await Promise.all(
        [
          readPublishedPosts(app.db.pool, post),
          readPostAddresses(app.db.pool),
          readTopicDescriptions(app.db.pool),
          readSectionsData(app.db.pool),
          readSiteSettings(app.db.pool, options.settingsSeed),
          samplesLoaded(app.db.pool),
          // What a post says unlocks it names tiers: a change to one announces a content change.
          readTiers(app.db.pool),
        ],
      );
      return createSiteContent(
        fillSiteClaims(posts, options.facts),
        // The shipped sample perks, while the site has its samples.
        loaded ? options.perks : options.perks.filter((perk) => !perk.sample),
        css,
        addresses,
        descriptions,
        sections,
        settings,
        tierNames(tiers),
      );
    }

    /** Reads the posts again when the next scheduled one goes live. */
    async function scheduleNextLive() {
      clearTimeout(nextLive);
      const { rows } = await app.db.pool.query<{ at: Date | null }>(
        `SELECT min("publishedAt") AS at FROM "posts"
          WHERE "deletedAt" IS NULL AND "status" = 'scheduled' AND "publishedAt" > now()`,
      );
      const at = rows[0]?.at;
      if (!at || closed) return;
      // Timers hold at most about 24 days; a later post is looked at again then.
      const wait = Math.min(Math.max(at.getTime() - Date.now(), 0) + 50, 2 ** 31 - 1);
      nextLive = setTimeout(() => {
        // A post scheduled without a job of its own (a file imported with a date to come) is
        // marked published here; the desk's have their job on the queue, and either way it is
        // done once (publishDuePosts is idempotent).
        void publishDuePosts(app.db.pool)
          .catch((error: unknown) => app.log.error({ err: error }, 'could not publish due posts'))
          .finally(() => void refresh());
      }, wait);
      nextLive.unref();
    }

    let pending: Promise<void> | null = null;
    let again = false;
    /**
     * One read at a time; asked for during a read, one more follows it (that read may have begun
     * before the change). Changes told together are read together.
     */
    function refresh(): Promise<void> {
      if (pending) {
        again = true;
        return pending;
      }
      pending = (async () => {
        do {
          again = false;
          await read();
        } while (again);
      })()
        .catch((error: unknown) => app.log.error({ err: error }, 'could not read the posts'))
        .finally(() => {
          pending = null;
        });
      return pending;
    }

    /**
     * Reads the content again when the database is at another generation than the one drawn
     * (normally a later one; an earlier one after a restore from a backup).
     */
    async function catchUp(generation: number) {
      if (generation !== held) await refresh();
    }
    const checkGeneration = async () => catchUp(await readContentGeneration(app.db.pool));

    app.decorate('siteContent', {
      current() {
        if (!content) throw new Error('The site content is read when the app is ready');
        return content;
      },
      async waitFor(generation: number | null) {
        if (generation !== null && held < generation) await refresh();
      },
      refresh,
      onChange(listener: (content: SiteContent) => void) {
        listeners.push(listener);
      },
      preview: draw,
    } satisfies SiteContentSource);
    // A route that changed the content answers once this server draws it (content-waits.ts).
    waitForAnnouncedChanges(app, { production: app.config.env === 'production' });

    const schedule = createPostSchedule(app.db.pool, app.jobs, {
      onPublished: () => void checkGeneration().catch(() => {}),
    });
    app.decorate('postSchedule', schedule);

    // Changes made by other app servers; those made while not listening (before LISTEN, or during
    // a cut) are found by checking the generation once listening.
    const changes = listenForChanges(app, {
      channel: CONTENT_CHANNEL,
      what: 'content changes',
      // A notice without a generation (sent by hand) is a change all the same.
      onNotice: (payload) =>
        void (/^\d{1,15}$/.test(payload) ? catchUp(Number(payload)) : refresh()),
      check: () =>
        checkGeneration().catch((error: unknown) =>
          app.log.warn({ err: error }, 'could not read the content generation'),
        ),
      pollMs: POLL_MS,
    });

    app.addHook('onReady', async () => {
      const samples = await startSamples(app.db.pool, options.samples.load);
      await ensureSiteSettings(
        app.db.pool,
        options.settingsSeed,
        // Used only when the row is made: the first start (or the first since settings came).
        samples.loaded ? await sampleSettings() : {},
      );
      // A site without its samples (never loaded, or removed) imports none of them again.
      if (options.seedDir && samples.loaded) {
        const seeded = await seedPosts(app.db.pool, options.seedDir);
        if (!seeded.ok) app.log.error(seeded.problem);
        else if (seeded.result.created > 0) {
          app.log.info(`imported ${seeded.result.created} posts from ${options.seedDir}`);
        }
      }
      await read();
      await changes.listen();
      await schedule.start();
    });

    /** The sample site's settings (content/settings.json); SITE_NAME, when set, names the site. */
    async function sampleSettings() {
      if (!options.seedDir) return {};
      const read = await readSampleSettings(options.seedDir);
      if (!read.ok) {
        app.log.error(`the sample settings were not loaded: ${read.problem}`);
        return {};
      }
      const { title, ...words } = read.settings;
      return options.samples.titleSet || title === undefined ? words : { title, ...words };
    }

    app.addHook('onClose', async () => {
      closed = true;
      schedule.stop();
      clearTimeout(nextLive);
      await changes.stop();
      await pending;
    });
  },
  { name: 'site-content', dependencies: ['database', 'job-queue'] },
);

/** The first of these stylesheets that is there. */
async function readSiteCss(files: string[]): Promise<string> {
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text !== null) return text;
  }
  return '';
}
