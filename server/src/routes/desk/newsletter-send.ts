import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { type NewsletterSendStatus } from '../../../../contract/desk-api.js';
import {
  NewsletterSendBodySchema,
  NewsletterStatusQuerySchema,
  describeAudience,
  readAudience,
  sameAudience,
  type NewsletterAudience,
  type NewsletterAudienceName,
} from '../../../../contract/newsletters.js';
import { postPath } from '../../../../contract/posts.js';
import { readBySchema } from '../../../../contract/schema-problems.js';
import {
  PUBLIC_RULE,
  VISITOR,
  isRestricted,
  type PostVisibility,
} from '../../../../contract/reading.js';
import { bodyKey } from '../../../../contract/site-data.js';
import type { SiteContent } from '../../content/site-content.js';
import { previewRow } from '../../content/post-publishing.js';
import { writeAudit } from '../../staff/audit.js';
import { HttpError } from '../../http/errors.js';
import { createMailer, type Mailer } from '../../mail/mailer.js';
import {
  audienceByDefault,
  countReach,
  readSendAudience,
  resolveAudience,
  type ResolvedAudience,
} from '../../newsletter/audience.js';
import {
  DEFAULT_TIMINGS,
  countDeliveries,
  countRecipients,
  type QueueTimings,
} from '../../newsletter/delivery-queue.js';
import {
  issueAsRead,
  mailedIssueOf,
  versionFor,
  type MailedIssue,
} from '../../newsletter/issue-versions.js';
import {
  issueMailFor,
  issueMailSiteWith,
  mailboxOf,
  renderIssue,
} from '../../newsletter/render-issue.js';
import { SendLockedError, sendIssue } from '../../newsletter/send-issue.js';
import { createUnsubscribeTokens } from '../../newsletter/tokens.js';
import { TEST_COPY_DELIVERY, createMailTracking, issueFigures } from '../../newsletter/tracking.js';
import { deskStaff } from './desk-staff.js';

export interface NewsletterSendOptions {
  siteUrl: string;
  /** MAIL_FROM's address takes List-Unsubscribe's mails (the sender's name is app.mailFrom's). */
  mailFrom: string;
  smtpUrl: string | undefined;
  sessionSecret: string;
  /** SMTP connections a send keeps open (NEWSLETTER_CONNECTIONS). */
  connections: number;
  /** The delivery queue's retry timings (tests shorten them). */
  timings?: QueueTimings;
  /** An open pixel and links through the site in each issue (NEWSLETTER_TRACKING). */
  tracking: boolean;
}

const Id = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,8}$' }) });
const TestReader = Type.Union([Type.Literal('member'), Type.Literal('subscriber')]);

/** The kinds mailed to the subscribers: issues, and articles mailed as one. */
const MAILED_KINDS = new Set(['newsletter', 'article']);

/** An article's key among the issues' (no issue's slug has a double hyphen). */
const articleIssueKey = (slug: string) => `article--${slug}`;

/** The key a post's deliveries and send are kept under. */
const issueKeyOf = (post: { kind: string; slug: string }) =>
  post.kind === 'article' ? articleIssueKey(post.slug) : post.slug;

/**
 * A published post as the subscribers get it (newsletter/issue-versions.ts). An issue is itself.
 * An article becomes an issue of its own, kept apart from the issues' by its key
 * (`article--<slug>`) and linking to its page. Each reader gets the whole, or what its rule leaves
 * them (the opening and a call to upgrade), as the page would show them.
 */
export function mailableOf(content: SiteContent, kind: string, slug: string): MailedIssue | null {
  if (kind === 'newsletter') {
    const issue = content.newsletters.find((item) => item.slug === slug);
    const post = content.published.find(({ row }) => row.kind === kind && row.slug === slug);
    return issue ? mailedIssueOf(issue, post, content.tiers) : null;
  }
  const article = content.articles.find((item) => item.slug === slug);
  const opening = content.articleBodies.get(slug);
  if (kind !== 'article' || !article || !opening) return null;
  const issue = {
    slug: articleIssueKey(slug),
    title: article.title,
    summary: article.summary,
    publishedAt: article.publishedAt,
    membersOnly: false,
    articles: [],
    sample: false,
    path: postPath({ kind: 'article', slug, category: article.category }, content.sectionSlugs),
    body: content.memberBodies.get(slug) ?? opening,
  };
  return {
    issue,
    rule: content.rules.get(bodyKey('article', slug)) ?? PUBLIC_RULE,
    opening,
    tiers: content.tiers,
  };
}

/**
 * A body or a query read by its schema (contract/newsletters.ts) through
 * contract/schema-problems.ts, or a 400 `invalid_request` naming each wrong field.
 */
function readBy<T extends TSchema>(schema: T, value: unknown, what: 'body' | 'query') {
  const reading = readBySchema(schema, value ?? {}, { defaults: false, whole: what });
  if (reading.ok) return reading.value;
  const problems = reading.problems.map(({ field, message }) => `${field}: ${message}`);
  throw new HttpError(400, 'invalid_request', `Invalid ${what}: ${problems.join('; ')}.`);
}

/** The audience a body or a query names, or a 400 `invalid_audience` saying what is wrong. */
function namedAudience(
  audience: NewsletterAudienceName | undefined,
  tiers: readonly string[] | undefined,
): NewsletterAudience | null {
  const named = readAudience(audience, tiers);
  if (!named.ok) throw new HttpError(400, 'invalid_audience', named.message);
  return named.value;
}

/**
 * A newsletter issue, or an article as one (mailableOf), mailed from the desk
 * (docs/decisions/0017-writing-desk.md), with the machinery `npm run newsletter:send` uses: "Send
 * test" mails the issue as it is in the editor to the staff member alone; "Send" (an owner signed
 * in within 12 hours, once the issue is published, naming the audience and the recipient count
 * the desk showed for it) queues every confirmed subscriber of the audience not yet queued and
 * works the queue on this server, in the background, exactly once per subscriber however often
 * it is started or stopped.
 */
const newsletterSendRoutes: FastifyPluginAsyncTypebox<NewsletterSendOptions> = async (
  app,
  options,
) => {
  const fixedSite = {
    siteUrl: options.siteUrl,
    unsubscribeMailbox: mailboxOf(options.mailFrom),
    ...(options.tracking && {
      tracking: createMailTracking(options.sessionSecret, options.siteUrl),
    }),
  };
  /** The site as its settings are now: each mail names the publication as it is called today. */
  const siteNow = () => issueMailSiteWith(fixedSite, app.siteContent.current().settings);
  const tokens = createUnsubscribeTokens(options.sessionSecret);
  const timings = options.timings ?? DEFAULT_TIMINGS;
  /** Sends running on this server, by issue key, with the audience each is queueing. */
  const sends = new Map<
    string,
    { controller: AbortController; done: Promise<void>; audience: NewsletterAudience }
  >();

  app.addHook('onClose', async () => {
    // A stopped send carries on from where it was at the next "Send" (or newsletter:send).
    for (const { controller } of sends.values()) controller.abort();
    await Promise.all([...sends.values()].map(({ done }) => done));
  });

  /** A post that can be mailed, as saved: 404 when there is none, 400 for another kind. */
  async function mailedPost(id: number) {
    const { rows } = await app.db.pool.query<{
      kind: string;
      slug: string;
      visibility: PostVisibility;
      tiers: string[];
      sample: boolean;
    }>(
      `SELECT p."kind", p."slug", p."visibility",
              ARRAY(SELECT t."slug" FROM "tiers" t WHERE t."id" = ANY(p."tierIds")
                     ORDER BY t."position", t."id") AS tiers,
              coalesce((p."fields"->>'sample')::boolean, false) AS sample
         FROM "posts" p WHERE p."id" = $1 AND p."deletedAt" IS NULL`,
      [id],
    );
    const post = rows[0];
    if (!post) throw new HttpError(404, 'post_not_found', `There is no post ${id}.`);
    if (!MAILED_KINDS.has(post.kind)) {
      throw new HttpError(
        400,
        'not_a_newsletter',
        'Only a newsletter issue or an article is mailed to the subscribers.',
      );
    }
    return post;
  }

  /**
   * Who a send of the post goes to when it does not say: the audience it was last sent to, else
   * the post's own default (audience.ts), by its rule as published (as saved, before then).
   */
  async function audienceOf(
    post: Awaited<ReturnType<typeof mailedPost>>,
    named: NewsletterAudience | null,
  ): Promise<ResolvedAudience> {
    if (named) return resolveAudience(app.db.pool, named);
    const stored = await readSendAudience(app.db.pool, issueKeyOf(post));
    if (stored) return resolveAudience(app.db.pool, stored);
    const published = mailableOf(app.siteContent.current(), post.kind, post.slug);
    const rule = published?.rule ?? { visibility: post.visibility, tiers: post.tiers };
    return resolveAudience(app.db.pool, audienceByDefault(post.kind, rule));
  }

  /** The issue as it would be mailed now: the post with any unsaved changes sent along. */
  async function issueOf(id: number, changes: Record<string, unknown>): Promise<MailedIssue> {
    await mailedPost(id);
    const row = await previewRow(app.db.pool, id, changes);
    const mailable = mailableOf(await app.siteContent.preview(row), row.kind, row.slug);
    if (!mailable) throw new HttpError(500, 'issue_missing', 'The issue could not be drawn.');
    return mailable;
  }

  async function statusOf(
    key: string,
    audience: ResolvedAudience,
    sample: boolean,
  ): Promise<NewsletterSendStatus> {
    const [{ recipients, alreadyQueued }, reach, counts, figures] = await Promise.all([
      countRecipients({ db: app.db }, key, audience),
      countReach(app.db.pool, key),
      countDeliveries(app.db.pool, key),
      issueFigures(app.db.pool, key),
    ]);
    return {
      audience: { audience: audience.audience, tiers: audience.tiers },
      recipients,
      alreadyQueued,
      reach,
      deliveries: {
        sent: counts.sent,
        failed: counts.failed,
        queued: counts.queued,
        skipped: counts.skipped,
      },
      sending: sends.has(key),
      mailing: options.smtpUrl !== undefined,
      sample,
      tracking: options.tracking,
      figures,
    };
  }

  // Who it would reach, from the post as saved: a draft still missing fields has a count too.
  app.get(
    '/posts/:id/newsletter',
    { schema: { params: Id }, config: { access: 'staff' } },
    async (request) => {
      const query = readBy(NewsletterStatusQuerySchema, request.query, 'query');
      const post = await mailedPost(Number(request.params.id));
      const tiers = query.tiers
        ?.split(',')
        .map((slug) => slug.trim())
        .filter(Boolean);
      const audience = await audienceOf(post, namedAudience(query.audience, tiers));
      return { status: await statusOf(issueKeyOf(post), audience, post.sample) };
    },
  );

  app.post(
    '/posts/:id/newsletter/test',
    {
      schema: {
        params: Id,
        // Read as a member (the default) or as a subscriber who is not one.
        querystring: Type.Object({ as: Type.Optional(TestReader) }),
        body: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      },
      config: { access: 'staff' },
    },
    async (request) => {
      const staff = deskStaff(request);
      const mailed = await issueOf(Number(request.params.id), request.body ?? {});
      const asMember = request.query.as !== 'subscriber';
      const site = siteNow();
      // A member of the tiers that may read it gets it whole; a subscriber without an account what
      // the rule leaves a visitor.
      const version = asMember ? 'whole' : versionFor(mailed.rule, VISITOR);
      const mail = issueMailFor(
        renderIssue(issueAsRead(mailed, version), site),
        site,
        staff.email,
        // A test copy's unsubscribe link names nobody: it unsubscribes nobody (nor do its
        // pixel and links count for anyone).
        tokens.sign(TEST_COPY_DELIVERY),
      );
      await app.mailer.send({ ...mail, subject: `[Test] ${mail.subject}` });
      const copy = `A test copy of “${mailed.issue.title}”`;
      // Said only where the two differ: a restricted post, whole or up to its line.
      const as = isRestricted(mailed.rule)
        ? ` (as ${asMember ? 'a member' : 'a subscriber who is not a member'} gets it)`
        : '';
      return {
        message: options.smtpUrl
          ? `${copy} is on its way to ${staff.email}${as}.`
          : app.mailbox
            ? `${copy} for ${staff.email}${as} is in the desk's Mailbox: SMTP_URL is not set, so nothing was mailed.`
            : `${copy} for ${staff.email}${as} was printed to the server's log: SMTP_URL is not set, so nothing was mailed.`,
      };
    },
  );

  app.post(
    '/posts/:id/newsletter/send',
    {
      // The body is read by NewsletterSendBodySchema below, in its own words.
      schema: { params: Id },
      // A change to subscribers' inboxes: an owner's, signed in within 12 hours (decision 25).
      config: { access: 'change' },
    },
    async (request, reply) => {
      const staff = deskStaff(request);
      const body = readBy(NewsletterSendBodySchema, request.body, 'body');
      const named = namedAudience(body.audience, body.tiers);
      const post = await mailedPost(Number(request.params.id));
      const mailable = mailableOf(app.siteContent.current(), post.kind, post.slug);
      if (!mailable) {
        throw new HttpError(409, 'publish_first', 'Publish it first, then send it.');
      }
      const published = mailable.issue;
      if (published.sample && body.sendSample !== true) {
        throw new HttpError(
          409,
          'sample_issue',
          'This is a sample issue shipped with Cohort: write your own before you send anything.',
        );
      }
      const audience = await audienceOf(post, named);
      const running = sends.get(published.slug);
      if (running && !sameAudience(running.audience, audience)) {
        throw new HttpError(
          409,
          'send_running',
          `It is being sent to ${describeAudience(running.audience)} now: once that is done, send it to others.`,
        );
      }
      const status = await statusOf(published.slug, audience, published.sample);
      if (status.recipients !== body.recipients) {
        return reply.code(409).send({
          error: {
            code: 'recipients_changed',
            message: `The issue would now go to ${status.recipients} subscribers, not ${body.recipients}: confirm again.`,
          },
          status,
        });
      }
      if (!running) {
        await writeAudit(app.db.pool, staff, {
          action: 'newsletter_send',
          targetUserId: null,
          before: null,
          after: {
            slug: published.slug,
            title: published.title,
            recipients: status.recipients,
            audience: audience.audience,
            tiers: audience.tiers,
          },
        });
        start(mailable, audience);
      }
      return reply
        .code(202)
        .send({ status: await statusOf(published.slug, audience, published.sample) });
    },
  );

  function start(mailed: MailedIssue, audience: ResolvedAudience) {
    const { issue, ...reading } = mailed;
    const controller = new AbortController();
    const mailer: Mailer = createMailer({
      smtpUrl: options.smtpUrl,
      from: app.mailFrom,
      log: app.log,
      poolConnections: options.connections,
      ...(app.mailbox && { keep: app.mailbox.keep }),
    });
    const done = sendIssue({
      database: app.db,
      jobs: app.jobs,
      lockable: app.db.sessionLocks,
      mailer,
      site: siteNow(),
      tokens,
      issue,
      reading,
      audience,
      timings,
      concurrency: options.connections * 2,
      signal: controller.signal,
    })
      .then((final) => {
        app.log.info({ slug: issue.slug, counts: final.counts }, 'newsletter issue sent');
      })
      .catch((error: unknown) => {
        if (error instanceof SendLockedError) app.log.warn(error.message);
        else app.log.error({ err: error, slug: issue.slug }, 'the newsletter send failed');
      })
      .finally(() => {
        mailer.close();
        sends.delete(issue.slug);
      });
    sends.set(issue.slug, { controller, done, audience });
  }
};

export default newsletterSendRoutes;
