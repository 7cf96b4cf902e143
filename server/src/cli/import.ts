import { createPostSchedule } from '../content/post-schedule.js';
import { DomainError } from '../domain-error.js';
import { createJobQueue } from '../jobs/job-queue.js';
import { createCardReader } from '../embeds/card-reader.js';
import { retryMissingImages, type ImageRetry } from '../imports/missing-images.js';
import { runImport, type ImportProgress, type ImportRequest } from '../imports/run-import.js';
import {
  IMPORT_SOURCES,
  ImportFileError,
  type ImportCounts,
  type ImportReport,
  type ImportSource,
  type MissingImages,
} from '../imports/source.js';
import { createMailer } from '../mail/mailer.js';
import { createStripeClient } from '../stripe/stripe-client.js';
import { openImageStore } from '../uploads/image-store.js';
import {
  commandLog,
  fail,
  messageOf,
  plural,
  printerOf,
  readConfigOrFail,
  singleCommand,
  type CommandIo,
} from './command-line.js';
import { withDatabase } from './open-database.js';

/**
 * `npm run import -- <source> <path> …`: a publication from Ghost, WordPress, Substack or Medium
 * (or a members file) into the site, with the site's own configuration, beside a running site or
 * not (server/src/imports/run-import.ts does the work). On a terminal it shows its progress on one
 * line; it ends with a summary, or with `--json` prints only the report. Exit status 0 when the
 * file was imported (items it skipped are in the summary), 1 when nothing could be imported (a
 * file that is not an export), 2 for a wrong command.
 */

const USAGE = `usage:
  import <source> <path> [--section <name>] [--map <tag>=<section>]…
         [--price <stripe price id>=[<tier>/]<plan>]… [--dry-run] [--json] [--welcome]
  import --retry-images [--json]
      <source>: ${IMPORT_SOURCES.join(', ')}
      --section   the section posts go to when no --map places them (else the first)
      --map       posts with this tag go to that section (the first mapped tag wins)
      --price     members paying this Stripe price on the old platform have that plan here, of
                  that tier (the first when none is named): --price price_123=founder/yearly
      --dry-run   report what would be done, write nothing
      --json      print only the report, as one JSON document
      --welcome   mail each new member a welcome (nobody is mailed otherwise)
      --retry-images  fetch again the images posts still show from their old addresses, store
                  them and point the posts at them (an import does it too, before its report)`;

/** The command's arguments as an import request, and how to print; a wrong one ends with usage. */
export function parseImportArgs(args: readonly string[]): {
  request: ImportRequest | null;
  json: boolean;
} {
  const positional: string[] = [];
  const map: Record<string, string> = {};
  const prices: Record<string, string> = {};
  let section: string | undefined;
  const flags = { dryRun: false, json: false, welcome: false, retryImages: false };
  const pair = (option: string, value: string | undefined, into: Record<string, string>) => {
    const at = value?.lastIndexOf('=') ?? -1;
    if (!value || at <= 0 || at === value.length - 1) {
      fail(`${option} takes <name>=<value>, as in ${option} news=Health\n${USAGE}`, 2);
    }
    into[value.slice(0, at).trim()] = value.slice(at + 1).trim();
  };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    const [option, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => inline ?? args[++index];
    if (option === '--dry-run') flags.dryRun = true;
    else if (option === '--json') flags.json = true;
    else if (option === '--welcome') flags.welcome = true;
    else if (option === '--retry-images') flags.retryImages = true;
    else if (option === '--section') {
      section = value();
      if (!section) fail(`--section takes a section's name\n${USAGE}`, 2);
    } else if (option === '--map') pair('--map', value(), map);
    else if (option === '--price') pair('--price', value(), prices);
    else if (arg.startsWith('--')) fail(`${arg} is not an option of import\n${USAGE}`, 2);
    else positional.push(arg);
  }
  const [source, path, ...extra] = positional;
  // Alone, the retry of the missing images; with a file, the import does it as well.
  if (flags.retryImages && positional.length === 0) {
    if (flags.dryRun || flags.welcome || section !== undefined) {
      fail(`--retry-images alone takes only --json\n${USAGE}`, 2);
    }
    return { request: null, json: flags.json };
  }
  if (!source || !path || extra.length > 0) fail(USAGE, 2);
  if (!(IMPORT_SOURCES as readonly string[]).includes(source)) {
    fail(`"${source}" is not a source: one of ${IMPORT_SOURCES.join(', ')}\n${USAGE}`, 2);
  }
  return {
    request: {
      source: source as ImportSource,
      path,
      ...(section !== undefined && { section }),
      map,
      prices,
      dryRun: flags.dryRun,
      welcome: flags.welcome,
    },
    json: flags.json,
  };
}

const countsLine = (name: string, counts: ImportCounts) =>
  `${name}: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ` +
  `${counts.skipped.length} skipped`;

/** The report as lines a publisher reads. */
/** Skipped items sharing a reason from this many on are summed up on one line, naming a few. */
const GROUP_FROM = 4;
const NAMED_IN_GROUP = 3;

export function summaryOf(report: ImportReport, path: string): string[] {
  const lines = [
    report.dryRun
      ? `${report.source} ${path}: a dry run, nothing was written. It would do this:`
      : `${report.source} ${path}: imported in ${report.seconds} s.`,
    // A members file has no posts to speak of; a post export may bring members (Ghost's).
    ...(report.source === 'members'
      ? []
      : [countsLine('posts', report.posts), countsLine('pages', report.pages)]),
    countsLine('members', report.members),
    `${plural(report.drafts, 'draft')}, ${report.scheduled} scheduled, ` +
      `${plural(report.topics, 'new topic')}, ${plural(report.redirects, 'old address', 'old addresses')} redirecting`,
    `images: ${report.images.stored} stored, ${report.images.notFetched.length} not fetched`,
  ];
  if (report.comments.imported + report.comments.skipped > 0) {
    lines.push(
      `comments: ${report.comments.imported} imported, ${report.comments.skipped} not ` +
        '(held for approval, pingbacks, or on a post not imported)',
    );
  }
  const skipped = [
    ...report.posts.skipped.map((item) => ['post', item] as const),
    ...report.pages.skipped.map((item) => ['page', item] as const),
    ...report.members.skipped.map((item) => ['member', item] as const),
  ];
  if (skipped.length > 0) {
    lines.push('skipped:');
    // Items skipped for the same reason on one line when there are many (a WordPress export's
    // dozens of menu entries); `--json` lists each.
    const byReason = new Map<string, string[]>();
    for (const [kind, { item, reason }] of skipped) {
      const key = `${kind}\u0000${reason}`;
      byReason.set(key, [...(byReason.get(key) ?? []), item]);
    }
    for (const [key, items] of byReason) {
      const [kind = '', reason = ''] = key.split('\u0000');
      if (items.length < GROUP_FROM) {
        for (const item of items) lines.push(`  ${kind} "${item}": ${reason}`);
        continue;
      }
      const named = items.slice(0, NAMED_IN_GROUP).map((item) => `"${item}"`);
      const more = items.length - named.length;
      lines.push(
        `  ${items.length} ${kind}s: ${reason} (${named.join(', ')}${more > 0 ? `, and ${more} more` : ''})`,
      );
    }
  }
  if (report.images.notFetched.length > 0) {
    lines.push('images not fetched (their posts show them from the old address meanwhile):');
    for (const { url, reason } of report.images.notFetched) lines.push(`  ${url}: ${reason}`);
  }
  if (report.images.missing) lines.push(...missingLines(report.images.missing));
  if (report.unmappedPrices.length > 0) {
    lines.push(
      `Stripe prices that are not the site's plans (they grant nothing; map one with --price <id>=<tier>/<plan>): ${report.unmappedPrices.join(', ')}`,
    );
  }
  if (report.notes.length > 0) {
    lines.push('notes:');
    for (const note of report.notes) lines.push(`  ${note}`);
  }
  return lines;
}

/**
 * What posts still show from elsewhere, post by post, and how to try again: counted from the
 * posts, so it says 0 only when none points away.
 */
export function missingLines(missing: MissingImages): string[] {
  if (missing.count === 0) return ['images still missing: 0'];
  return [
    `images still missing: ${missing.count}, in ${plural(missing.posts.length, 'post')} ` +
      '(try again: npm run import -- --retry-images)',
    ...missing.posts.flatMap((post) => [
      `  "${post.title}" (${post.kind} ${post.slug}):`,
      ...post.urls.map((url) => `    ${url}`),
    ]),
  ];
}

/** The retry's outcome as lines a publisher reads. */
export function retryLines(retry: ImageRetry): string[] {
  return [
    `images fetched again: ${retry.fetched} stored, ${plural(retry.postsUpdated, 'post')} updated`,
    ...(retry.notFetched.length > 0
      ? ['still not fetched:', ...retry.notFetched.map(({ url, reason }) => `  ${url}: ${reason}`)]
      : []),
    ...missingLines(retry.missing),
  ];
}

/** One line on a terminal, rewritten as the import moves. */
function progressLine(io: CommandIo, show: boolean) {
  let shown = false;
  return {
    update(progress: ImportProgress) {
      if (!show) return;
      const count = progress.total > 0 ? ` ${progress.done}/${progress.total}` : '';
      io.stderr.write(`\r\u001b[K${progress.phase}${count}`);
      shown = true;
    },
    end() {
      if (shown) io.stderr.write('\r\u001b[K');
    },
  };
}

/**
 * Adds the schedule's job for each scheduled post (as the desk does when it schedules one), so a
 * server working the queue makes it live on time; one that does not yet makes it live when it
 * starts (post-schedule.ts). A failure here loses nothing: the post stays scheduled.
 */
function scheduleFor(pool: Parameters<typeof createPostSchedule>[0]) {
  const queued: { id: number; at: Date }[] = [];
  return {
    schedule: {
      async publishAt(id: number, at: Date) {
        queued.push({ id, at });
      },
    },
    async flush(warn: (line: string) => void) {
      if (queued.length === 0) return;
      const jobs = createJobQueue(pool, {
        log: (error) => warn(`the schedule: ${messageOf(error)}`),
      });
      const schedule = createPostSchedule(pool, jobs, { onPublished: () => {} });
      try {
        for (const { id, at } of queued) await schedule.publishAt(id, at);
      } catch (error) {
        warn(
          `Scheduled posts stay scheduled, but their time could not be queued (${messageOf(error)}): ` +
            'they go live when the site next starts after it.',
        );
      } finally {
        await jobs.stop();
      }
    },
  };
}

async function importCommand(args: string[], env: NodeJS.ProcessEnv, io: CommandIo) {
  const { request, json } = parseImportArgs(args);
  const config = readConfigOrFail(env);
  const { out, err } = printerOf(io);
  const progress = progressLine(io, !json && (io.stderr as { isTTY?: boolean }).isTTY === true);
  if (!request) {
    const retry = await withDatabase(config, io, async ({ database }) => {
      const done = await retryMissingImages(
        {
          pool: database.pool,
          imageStore: openImageStore(config.uploads),
          config,
        },
        { onProgress: (done, total) => progress.update({ phase: 'images', done, total }) },
      );
      progress.end();
      return done;
    });
    if (json) out(JSON.stringify(retry));
    else for (const line of retryLines(retry)) out(line);
    return;
  }
  const log = commandLog(config, io);
  const report = await withDatabase(config, io, async ({ database, pglite }) => {
    const queue = scheduleFor(database.pool);
    const imageStore = openImageStore(config.uploads);
    try {
      const done = await runImport(
        request,
        {
          pool: database.pool,
          imageStore,
          config,
          stripe: config.stripe ? createStripeClient(config.stripe) : null,
          mail: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log }),
          // The embedded database serves one connection: the job queue waits for the next start.
          ...(!pglite && { schedule: queue.schedule }),
          cards: createCardReader({
            pool: database.pool,
            imageStore,
            maxImageBytes: config.uploads.maxBytes,
            outbound: { allowPrivate: config.outboundAllowPrivate },
          }),
        },
        (step) => progress.update(step),
      );
      progress.end();
      await queue.flush(err);
      return done;
    } catch (error) {
      progress.end();
      if (error instanceof ImportFileError) {
        fail(`Nothing was imported from ${request.path}: ${error.message}`);
      }
      if (error instanceof DomainError && error.code === 'unknown_section') fail(error.message, 2);
      throw error;
    }
  });
  if (json) {
    out(JSON.stringify(report));
    return;
  }
  for (const line of summaryOf(report, request.path)) out(line);
}

export const main = singleCommand('import', USAGE, importCommand);
