import { createWriteStream } from 'node:fs';
import { pino } from 'pino';
import {
  commandWithSubcommands,
  fail,
  printerOf,
  readConfigOrFail,
  type CommandIo,
} from './command-line.js';
import type { AppConfig } from '../config.js';
import { createMailer } from '../mail/mailer.js';
import { DEFAULT_TIMINGS, countDeliveries, countRecipients } from '../newsletter/delivery-queue.js';
import { exportConfirmedSubscribers } from '../newsletter/export-csv.js';
import {
  NEWSLETTER_AUDIENCES,
  describeAudience,
  readAudience,
  type NewsletterAudienceName,
} from '../../../contract/newsletters.js';
import type { TierName } from '../../../contract/reading.js';
import type { SiteSettings } from '../../../contract/site-settings.js';
import { DomainError } from '../domain-error.js';
import { readTiers, tierNames } from '../memberships/tier-catalog.js';
import { audienceByDefault, readSendAudience, resolveAudience } from '../newsletter/audience.js';
import { mailedIssueOf, type MailedIssue } from '../newsletter/issue-versions.js';
import { readPublishedPosts } from '../content/published-content.js';
import { createNewsletterIssues } from '../content/site-content.js';
import { readSiteSettings } from '../content/site-settings.js';
import { seedPosts } from '../content/seed.js';
import {
  issueMailFor,
  issueMailSiteWith,
  mailboxOf,
  renderIssue,
} from '../newsletter/render-issue.js';
import { SendLockedError, sendIssue, type SendProgress } from '../newsletter/send-issue.js';
import { countSubscribersByState } from '../newsletter/subscribers.js';
import { createUnsubscribeTokens } from '../newsletter/tokens.js';
import { createMailTracking } from '../newsletter/tracking.js';
import { contentDir } from '../paths.js';
import { readOrCreateDevSecret } from '../sessions/dev-secret.js';
import { withDatabase } from './open-database.js';

/**
 * The operator's newsletter commands, with the site's own configuration:
 *   npm run newsletter:send -- <slug>                 mail an issue to every confirmed subscriber
 *   npm run newsletter:send -- <slug> --audience paid only paying members (all, free, paid, or
 *                                     tiers with --tiers founder,patron); left out, the audience
 *                                     it was sent to before, else the issue's own (audience.ts)
 *   npm run newsletter:send -- <slug> --dry-run       count who would get it, send nothing
 *   npm run newsletter:send -- <slug> --test <email>  one copy to that address
 *   npm run newsletter:status -- [<slug>]             deliveries of an issue; subscribers by state
 *   npm run newsletter:export -- [file.csv]           confirmed subscribers as CSV
 * Exit status 0 when all went well, 1 when something needs the operator, 2 for a wrong command.
 */

const USAGE = `usage:
  newsletter send <slug> [--audience all|free|paid|tiers [--tiers <slug>,…]]
                         [--dry-run | --test <email>] [--send-sample]
  newsletter status [<slug>]
  newsletter export [<file.csv>]`;

/**
 * A published issue as it is mailed (whole, and what its rule leaves the others), from the site's
 * posts (the shipped ones imported first, as the site would), the tiers that may unlock it, and
 * the publication's settings now (its title may have changed in the desk since SITE_NAME).
 */
async function readIssue(
  config: AppConfig,
  slug: string | undefined,
  io: CommandIo,
): Promise<{ mailed: MailedIssue; tiers: TierName[]; settings: SiteSettings }> {
  if (!slug || slug.startsWith('--')) fail(USAGE, 2);
  const { posts, tiers, settings } = await withDatabase(config, io, async ({ database }) => {
    await seedPosts(database.pool, contentDir);
    return {
      posts: await readPublishedPosts(database.pool),
      tiers: tierNames(await readTiers(database.pool)),
      settings: await readSiteSettings(database.pool, { title: config.siteName }),
    };
  });
  const issues = createNewsletterIssues(posts);
  const issue = issues.find((item) => item.slug === slug);
  if (!issue) {
    fail(
      `There is no published issue "${slug}". Issues: ${issues.map((item) => item.slug).join(', ') || 'none'} (publish one from the desk, or import it with npm run content:import).`,
    );
  }
  const post = posts.find(({ row }) => row.kind === 'newsletter' && row.slug === slug);
  return { mailed: mailedIssueOf(issue, post, tiers), tiers, settings };
}

/** `--audience` and `--tiers` as the desk's send body has them, or a wrong command. */
function audienceFlags(flags: string[]) {
  const value = (name: string) => {
    const index = flags.indexOf(name);
    if (index < 0) return undefined;
    const given = flags[index + 1];
    if (!given || given.startsWith('--')) fail(`${name} needs a value.\n${USAGE}`, 2);
    return given;
  };
  const audience = value('--audience');
  if (audience !== undefined && !NEWSLETTER_AUDIENCES.some((name) => name === audience)) {
    fail(`--audience must be one of ${NEWSLETTER_AUDIENCES.join(', ')}.`, 2);
  }
  const tiers = value('--tiers')
    ?.split(',')
    .map((slug) => slug.trim())
    .filter(Boolean);
  const named = readAudience(audience as NewsletterAudienceName | undefined, tiers);
  if (!named.ok) fail(named.message.replaceAll('`tiers`', '--tiers'), 2);
  return named.value;
}

function siteOf(config: AppConfig, settings: SiteSettings) {
  return issueMailSiteWith(
    { siteUrl: config.siteUrl, unsubscribeMailbox: mailboxOf(config.mailFrom) },
    settings,
  );
}

/**
 * Without SMTP (MAIL_TRANSPORT=log, the default without SMTP_URL outside production) each mail is
 * printed here, as the server prints its own: readable, and never reported as sent.
 */
const mailPrinter = (out: (line: string) => void) => ({
  info(entry: { mail?: { to: string; subject: string; text: string } }) {
    const { mail } = entry;
    if (mail) out(`--- mail to ${mail.to}: ${mail.subject}\n${mail.text}\n---`);
  },
});
const NOT_MAILED = 'SMTP_URL is not set (MAIL_TRANSPORT=log): printed above, nothing was mailed';

const formatProgress = (progress: SendProgress, done = 'sent') => {
  const { sent, failed, queued, skipped } = progress.counts;
  return `${done} ${sent} · failed ${failed} · left ${queued}${skipped ? ` · skipped ${skipped}` : ''} · ${progress.rate.toFixed(0)} mails/s`;
};

async function sendCommand(args: string[], env: NodeJS.ProcessEnv, io: CommandIo) {
  const [slug, ...flags] = args;
  const { out, err } = printerOf(io);
  const config = readConfigOrFail(env);
  const named = audienceFlags(flags);
  const { mailed, tiers, settings } = await readIssue(config, slug, io);
  const { issue, ...reading } = mailed;
  const dryRun = flags.includes('--dry-run');
  const testIndex = flags.indexOf('--test');
  const testAddress = testIndex >= 0 ? flags[testIndex + 1] : undefined;
  if (testIndex >= 0 && !testAddress) fail(USAGE, 2);
  const log = pino({ level: 'warn' }, io.stdout);
  const printMail = mailPrinter(out);
  const site = siteOf(config, settings);
  const printed = !config.smtpUrl;
  if (issue.sample) {
    err(
      `"${issue.title}" is a sample issue shipped with Cohort (sample: true in content/newsletters/${issue.slug}.md): replace it with your own before you send anything.`,
    );
    if (!testAddress && !dryRun && !flags.includes('--send-sample')) {
      fail('Nothing was sent. To send the sample anyway, add --send-sample.');
    }
  }

  if (testAddress) {
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      log: printed ? printMail : log,
    });
    const tokens = createUnsubscribeTokens('test copy: its unsubscribe link does nothing');
    const mail = issueMailFor(
      renderIssue(issue, site),
      site,
      testAddress,
      tokens.sign('00000000-0000-4000-8000-000000000000'),
    );
    await mailer.send({ ...mail, subject: `[Test] ${mail.subject}` });
    mailer.close();
    out(
      printed
        ? `A test copy of "${issue.title}" for ${testAddress}: ${NOT_MAILED}.`
        : `Sent a test copy of "${issue.title}" to ${testAddress}.`,
    );
    return;
  }

  await withDatabase(config, io, async ({ database, pglite }) => {
    // Named, else the one it was sent to before, else the issue's own: as the desk's "Send".
    const chosen =
      named ??
      (await readSendAudience(database.pool, issue.slug)) ??
      audienceByDefault('newsletter', mailed.rule);
    const audience = await resolveAudience(database.pool, chosen).catch((error: unknown) =>
      error instanceof DomainError ? fail(error.message, 2) : Promise.reject(error),
    );
    const who = `confirmed subscribers (${describeAudience(audience, tiers)})`;
    if (dryRun) {
      const { recipients, alreadyQueued } = await countRecipients(
        { db: database },
        issue.slug,
        audience,
      );
      out(
        `"${issue.title}" would go to ${recipients} ${who} (${alreadyQueued} already had it or have it queued). Nothing was sent.`,
      );
      return;
    }
    out(`Sending "${issue.title}" to ${who}.`);
    const secret = config.sessionSecret ?? (await readOrCreateDevSecret(config.dataDir));
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      log: printed ? printMail : log,
      poolConnections: config.newsletterConnections,
    });
    const controller = new AbortController();
    const stop = () => {
      out('Stopping after the mails in flight (run the command again to carry on)…');
      controller.abort();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      const final = await sendIssue({
        database,
        lockable: !pglite,
        mailer,
        site: config.newsletterTracking
          ? { ...site, tracking: createMailTracking(secret, config.siteUrl) }
          : site,
        tokens: createUnsubscribeTokens(secret),
        issue,
        reading,
        audience,
        timings: DEFAULT_TIMINGS,
        concurrency: config.newsletterConnections * 2,
        signal: controller.signal,
        onProgress: (progress) => {
          if (!progress.done) out(formatProgress(progress, printed ? 'printed' : 'sent'));
        },
      });
      out(
        `${final.done && final.counts.queued === 0 ? 'Done' : 'Stopped'}: "${issue.title}" ${formatProgress(final, printed ? 'printed' : 'sent')} (${final.newlyQueued} newly queued${final.resumed ? `, ${final.resumed} resumed after a crash` : ''}).`,
      );
      if (printed) out(`${NOT_MAILED}.`);
      if (final.counts.failed > 0) {
        out(`See the failures: npm run newsletter:status -- ${issue.slug}`);
      }
    } catch (error) {
      if (error instanceof SendLockedError) fail(error.message);
      throw error;
    } finally {
      // The command may run inside a longer-lived process (a test's): Ctrl-C is its own again.
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      mailer.close();
    }
  });
}

async function statusCommand(slug: string | undefined, env: NodeJS.ProcessEnv, io: CommandIo) {
  const { out } = printerOf(io);
  const config = readConfigOrFail(env);
  await withDatabase(config, io, async ({ database }) => {
    if (slug) {
      const counts = await countDeliveries(database.pool, slug);
      out(`issue ${slug}`);
      out(`  delivered  ${counts.sent}`);
      out(`  failed     ${counts.failed} (of which ${counts.bounced} now bouncing)`);
      out(`  skipped    ${counts.skipped} (left before their turn)`);
      out(`  pending    ${counts.queued}`);
      const { rows } = await database.pool.query<{ email: string; lastError: string }>(
        `SELECT s."email", d."lastError" FROM newsletter_deliveries d
           JOIN newsletter_subscribers s ON s."id" = d."subscriberId"
          WHERE d."issueSlug" = $1 AND d."state" = 'failed' ORDER BY d."updatedAt" DESC LIMIT 10`,
        [slug],
      );
      for (const row of rows) out(`    ${row.email}: ${row.lastError}`);
    }
    const states = await countSubscribersByState({ db: database });
    out('subscribers');
    for (const [state, count] of Object.entries(states)) {
      out(`  ${state.padEnd(12)} ${count}`);
    }
  });
}

async function exportCommand(file: string | undefined, env: NodeJS.ProcessEnv, io: CommandIo) {
  const config = readConfigOrFail(env);
  await withDatabase(config, io, async ({ database }) => {
    const csv = file ? createWriteStream(file) : io.stdout;
    const write = (chunk: string) =>
      new Promise<void>((resolve, reject) =>
        csv.write(chunk, (error) => (error ? reject(error) : resolve())),
      );
    const count = await exportConfirmedSubscribers({ db: database }, write);
    if (file && 'end' in csv) {
      await new Promise<void>((resolve) => csv.end(resolve));
      printerOf(io).err(`${count} confirmed subscribers written to ${file}.`);
    }
  });
}

export const main = commandWithSubcommands('newsletter', USAGE, {
  send: sendCommand,
  status: ([slug], env, io) => statusCommand(slug, env, io),
  export: ([file], env, io) => exportCommand(file, env, io),
});
