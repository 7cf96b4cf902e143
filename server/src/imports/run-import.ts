import { basename } from 'node:path';
import type pg from 'pg';
import type Stripe from 'stripe';
import type { AppConfig } from '../config.js';
import type { PostSchedule } from '../content/post-schedule.js';
import type { CardReader } from '../embeds/card-reader.js';
import type { Mailer } from '../mail/mailer.js';
import type { ImageStore } from '../uploads/image-store.js';
import { writeMembers } from './import-members.js';
import { importRedirects } from './import-redirects.js';
import type { Staff } from '../staff/staff.js';
import { findMissingImages, retryMissingImages } from './missing-images.js';
import { keptNote, linkKeptStripeCustomers } from './kept-stripe-customers.js';
import { membershipPriceOf } from '../stripe/cohort-sales.js';
import { checkPriceMap, priceTiersOf } from './member-stripe.js';
import { tierSlugOf } from '../../../contract/tiers.js';
import { readTiers } from '../memberships/tier-catalog.js';
import { writeComments } from './import-comments.js';
import { writePosts } from './import-posts.js';
import { checkPlacement, readingNotes } from './post-planning.js';
import { readArticleSectionNames } from '../content/section-store.js';
import { readExport } from './read-export.js';
import type { ImportCounts, ImportReport, ImportSource } from './source.js';

/**
 * A whole import, as `npm run import` and the desk's Import page run it: the file read (a file
 * that cannot be imported at all throws ImportFileError before anything is written), then its
 * posts and pages (import-posts.ts), then its members (import-members.ts), and the report of
 * what was done, or with `dryRun` of what would be.
 */

export interface ImportRequest {
  source: ImportSource;
  /** The export: a file, a folder or a zip, as the source takes. */
  path: string;
  /** Where posts go that no `map` entry places. */
  section?: string;
  /** Tag → section. */
  map?: Record<string, string>;
  /** Stripe price id → `<plan>` or `<tier>/<plan>`, for members paying on the old platform. */
  prices?: Record<string, string>;
  dryRun?: boolean;
  /** Mail each new member a welcome (nobody is mailed by an import otherwise). */
  welcome?: boolean;
  /** The largest export read (the desk's upload limit); none for a file on the server. */
  maxBytes?: number;
}

export interface ImportDeps {
  pool: pg.Pool;
  imageStore: ImageStore;
  config: AppConfig;
  /** The site's Stripe account, to find what members pay; null when payments are off. */
  stripe: Stripe | null;
  mail: Mailer;
  /** The site's schedule of posts, for the scheduled ones (the desk passes the app's). */
  schedule?: Pick<PostSchedule, 'publishAt'>;
  /** Tests only: lets image fetches reach 127.0.0.1. Never from the environment or a command. */
  allowPrivateAddresses?: boolean;
  /** Tests only: false fetches no image from the web (the export's own are still taken). */
  fetchRemoteImages?: boolean;
  /** Reads the cards the posts name (embeds/card-reader.ts); none are read without it. */
  cards?: CardReader;
  /** Who runs it from the desk: what it changes beyond posts and members is audited as theirs. */
  actor?: Pick<Staff, 'userId' | 'email'>;
}

export interface ImportProgress {
  /** `reading`, `images`, `posts`, `members`. */
  phase: string;
  done: number;
  total: number;
  message?: string;
}

const emptyCounts = (): ImportCounts => ({ created: 0, updated: 0, unchanged: 0, skipped: [] });

/**
 * The images earlier runs left at their old addresses fetched again (not this run's: it just
 * tried them), then what posts still show from elsewhere counted from the posts themselves. A dry
 * run only counts.
 */
async function retryEarlierImages(
  deps: ImportDeps,
  images: ImportReport['images'],
  dryRun: boolean,
  onProgress: (progress: ImportProgress) => void,
) {
  if (!dryRun) {
    const tried = new Set(images.notFetched.map(({ url }) => url));
    const retry = await retryMissingImages(deps, {
      skip: tried,
      onProgress: (done, total) => onProgress({ phase: 'missing images', done, total }),
    });
    images.stored += retry.fetched;
    images.notFetched.push(...retry.notFetched);
    images.missing = retry.missing;
  } else {
    images.missing = await findMissingImages(deps.pool);
  }
}

export async function runImport(
  request: ImportRequest,
  deps: ImportDeps,
  onProgress: (progress: ImportProgress) => void = () => {},
): Promise<ImportReport> {
  const started = Date.now();
  const dryRun = request.dryRun ?? false;
  const placing = { dryRun, section: request.section, map: request.map };
  // A section that does not exist is refused before the file is read, let alone written.
  checkPlacement(placing, await readArticleSectionNames(deps.pool));
  // So is a wrong --price (it reads Stripe, never writes): before any post is written.
  const prices = await checkPriceMap(deps, request.prices ?? {});
  // The file's name, never where it lies: the desk shows progress to whoever imports.
  onProgress({ phase: 'reading', done: 0, total: 1, message: basename(request.path) });
  const bundle = await readExport(request.source, request.path, {
    ...(request.maxBytes !== undefined && { maxBytes: request.maxBytes }),
  });
  onProgress({ phase: 'reading', done: 1, total: 1 });
  // A --price naming a tier neither the site nor the export has, too: the export's are made first.
  const comingTiers = bundle.tiers.map((tier) => tierSlugOf(tier.slug || tier.name));
  if (prices.size > 0) priceTiersOf(prices, await readTiers(deps.pool), comingTiers);
  const written = await writePosts(deps, bundle, placing, onProgress);
  await retryEarlierImages(deps, written.images, dryRun, onProgress);
  written.notes.push(...readingNotes(bundle.posts));
  const commentsImported = await writeComments(deps.pool, bundle, dryRun);
  // The publisher's redirects the export carries, after the site's own (import-redirects.ts).
  if (bundle.redirects) {
    const actor = deps.actor ? { actor: deps.actor } : {};
    written.notes.push(await importRedirects(deps.pool, bundle.redirects, { dryRun, ...actor }));
  }
  // What the reader left out is the posts' (or, from a members file, the members') to report.
  const readerSkipped = bundle.skipped;
  let members = emptyCounts();
  let unmappedPrices: string[] = [];
  if (bundle.members.length > 0) {
    const result = await writeMembers(
      deps,
      bundle.members,
      {
        dryRun,
        prices: request.prices ?? {},
        comingTiers,
        welcome: request.welcome ?? false,
        source: request.source,
      },
      onProgress,
    );
    members = result.members;
    unmappedPrices = result.unmappedPrices;
    if (result.keptCustomers > 0) written.notes.push(keptNote(result.keptCustomers));
  }
  // Customers an earlier import kept while payments were off are linked now that they are on.
  if (deps.stripe && !dryRun) {
    const kept = await linkKeptStripeCustomers({
      pool: deps.pool,
      stripe: deps.stripe,
      membershipPrice: membershipPriceOf(deps.config),
      graceDays: deps.config.membership.graceDays,
    });
    if (kept.linked > 0) {
      written.notes.push(
        `Stripe customers kept while payments were off, now linked: ${kept.linked}`,
      );
    }
    members.skipped.push(...kept.notes);
    unmappedPrices = [...new Set([...unmappedPrices, ...kept.unmappedPrices])];
  }
  // The readers name a member row they left out `members row N: …`.
  const isMemberRow = (skipped: { reason: string }) => skipped.reason.startsWith('members row');
  for (const skipped of readerSkipped) {
    if (request.source === 'members' || isMemberRow(skipped)) members.skipped.push(skipped);
    else written.posts.skipped.push(skipped);
  }
  return {
    source: request.source,
    dryRun,
    ...written,
    members,
    unmappedPrices,
    comments: {
      imported: commentsImported,
      skipped: Math.max(bundle.comments - commentsImported, 0),
    },
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}
