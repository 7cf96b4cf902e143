import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { type NewsletterSendStatus } from '../../../../contract/desk-api.js';
import type { MarkdownTree } from '../../../../contract/markdown-tree.js';
import type { NewsletterIssue } from '../../../../contract/newsletters.js';
import { paths } from '../../../../contract/site-paths.js';
import { postPath } from '../../../../contract/posts.js';
import type { SiteContent } from '../../content/site-content.js';
import { previewRow } from '../../content/post-publishing.js';
import { writeAudit } from '../../staff/audit.js';
import { HttpError } from '../../http/errors.js';
import { createMailer, type Mailer } from '../../mail/mailer.js';
import {
  DEFAULT_TIMINGS,
  countDeliveries,
  countRecipients,
  type QueueTimings,
} from '../../newsletter/delivery-queue.js';
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

/** What a send mails: the issue, and for a members-only article, members' whole copy. */
interface Mailable {
  issue: NewsletterIssue & { path?: string };
  membersIssue?: NewsletterIssue & { path?: string };
}

/** An article's key among the issues' (no issue's slug has a double hyphen). */
const articleIssueKey = (slug: string) => `article--${slug}`;

/**
 * A published post as the subscribers get it. An issue is itself. An article becomes an issue of
 * its own, kept apart from the issues' by its key (`article--<slug>`: no issue's slug has a double
 * hyphen) and linking to its page; a members-only one goes whole to subscribers who are members
 * and, to the others, up to its members-only line with a link to join.
 */
export function mailableOf(content: SiteContent, kind: string, slug: string): Mailable | null {
  if (kind === 'newsletter') {
    const issue = content.newsletters.find((item) => item.slug === slug);
    return issue ? { issue } : null;
  }
  const article = content.articles.find((item) => item.slug === slug);
  const opening = content.articleBodies.get(slug);
  if (kind !== 'article' || !article || !opening) return null;
  const base = {
    slug: articleIssueKey(slug),
    title: article.title,
    summary: article.summary,
    publishedAt: article.publishedAt,
    membersOnly: false,
    articles: [],
    sample: false,
    path: postPath({ kind: 'article', slug, category: article.category }, content.sectionSlugs),
  };
  const whole = content.memberBodies.get(slug);
  if (!whole) return { issue: { ...base, body: opening } };
  const join: MarkdownTree['children'][number] = {
    type: 'paragraph',
    children: [
      { type: 'text', value: 'The rest is for members. ' },
      {
        type: 'link',
        url: paths.earlyAccess,
        children: [{ type: 'text', value: 'Join to read it all' }],
      },
      { type: 'text', value: '.' },
    ],
  };
  return {
    // The join line ends the text, above the opening's notes if it has any (they stay last).
    issue: {
      ...base,
      body: {
        type: 'root',
        children: [
          ...opening.children.filter((block) => block.type !== 'footnotes'),
          join,
          ...opening.children.filter((block) => block.type === 'footnotes'),
        ],
      },
    },
    membersIssue: { ...base, body: whole },
  };
}

/**
 * A newsletter issue, or an article as one (mailableOf), mailed from the desk
 * (docs/decisions/0017-writing-desk.md), with the machinery `npm run newsletter:send` uses: "Send
 * test" mails the issue as it is in the editor to the staff member alone; "Send" (an owner signed
 * in within 12 hours, once the issue is published, naming the recipient count the desk showed) queues every
 * confirmed subscriber not yet queued and works the queue on this server, in the background,
 * exactly once per subscriber however often it is started or stopped.
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
  /** Sends running on this server, by issue slug. */
  const sends = new Map<string, { controller: AbortController; done: Promise<void> }>();

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
      visibility: string;
      sample: boolean;
    }>(
      `SELECT "kind", "slug", "visibility", coalesce(("fields"->>'sample')::boolean, false) AS sample
         FROM "posts" WHERE "id" = $1 AND "deletedAt" IS NULL`,
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

  /** The issue as it would be mailed now: the post with any unsaved changes sent along. */
  async function issueOf(id: number, changes: Record<string, unknown>): Promise<Mailable> {
    await mailedPost(id);
    const row = await previewRow(app.db.pool, id, changes);
    const mailable = mailableOf(await app.siteContent.preview(row), row.kind, row.slug);
    if (!mailable) throw new HttpError(500, 'issue_missing', 'The issue could not be drawn.');
    return mailable;
  }

  async function statusOf(
    issue: Pick<NewsletterIssue, 'slug' | 'membersOnly' | 'sample'>,
  ): Promise<NewsletterSendStatus> {
    const [{ recipients, alreadyQueued }, counts, figures] = await Promise.all([
      countRecipients({ db: app.db }, issue.slug, issue.membersOnly),
      countDeliveries(app.db.pool, issue.slug),
      issueFigures(app.db.pool, issue.slug),
    ]);
    return {
      recipients,
      alreadyQueued,
      deliveries: {
        sent: counts.sent,
        failed: counts.failed,
        queued: counts.queued,
        skipped: counts.skipped,
      },
      sending: sends.has(issue.slug),
      mailing: options.smtpUrl !== undefined,
      sample: issue.sample,
      tracking: options.tracking,
      figures,
    };
  }

  // Who it would reach, from the post as saved: a draft still missing fields has a count too.
  app.get(
    '/posts/:id/newsletter',
    { schema: { params: Id }, config: { access: 'staff' } },
    async (request) => {
      const post = await mailedPost(Number(request.params.id));
      const article = post.kind === 'article';
      return {
        status: await statusOf({
          slug: article ? articleIssueKey(post.slug) : post.slug,
          membersOnly: !article && post.visibility === 'members',
          sample: post.sample,
        }),
      };
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
      const { issue, membersIssue } = await issueOf(Number(request.params.id), request.body ?? {});
      const asMember = request.query.as !== 'subscriber';
      const site = siteNow();
      if (!asMember && issue.membersOnly) {
        throw new HttpError(
          400,
          'members_only_issue',
          'This issue is for members only: subscribers who are not members do not get it.',
        );
      }
      const mail = issueMailFor(
        renderIssue(asMember ? (membersIssue ?? issue) : issue, site),
        site,
        staff.email,
        // A test copy's unsubscribe link names nobody: it unsubscribes nobody (nor do its
        // pixel and links count for anyone).
        tokens.sign(TEST_COPY_DELIVERY),
      );
      await app.mailer.send({ ...mail, subject: `[Test] ${mail.subject}` });
      const copy = `A test copy of “${issue.title}”`;
      // Said only where the two differ: a members-only article, whole or up to its line.
      const as = membersIssue
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
      schema: {
        params: Id,
        body: Type.Object({
          /** The recipient count the desk showed and the staff member confirmed. */
          recipients: Type.Integer({ minimum: 0 }),
          /** Send a shipped sample issue all the same. */
          sendSample: Type.Optional(Type.Boolean()),
        }),
      },
      // A change to subscribers' inboxes: an owner's, signed in within 12 hours (decision 25).
      config: { access: 'change' },
    },
    async (request, reply) => {
      const staff = deskStaff(request);
      const post = await mailedPost(Number(request.params.id));
      const mailable = mailableOf(app.siteContent.current(), post.kind, post.slug);
      if (!mailable) {
        throw new HttpError(409, 'publish_first', 'Publish it first, then send it.');
      }
      const published = mailable.issue;
      if (published.sample && request.body.sendSample !== true) {
        throw new HttpError(
          409,
          'sample_issue',
          'This is a sample issue shipped with Cohort: write your own before you send anything.',
        );
      }
      const status = await statusOf(published);
      if (status.recipients !== request.body.recipients) {
        return reply.code(409).send({
          error: {
            code: 'recipients_changed',
            message: `The issue would now go to ${status.recipients} subscribers, not ${request.body.recipients}: confirm again.`,
          },
          status,
        });
      }
      if (!sends.has(published.slug)) {
        await writeAudit(app.db.pool, staff, {
          action: 'newsletter_send',
          targetUserId: null,
          before: null,
          after: { slug: published.slug, title: published.title, recipients: status.recipients },
        });
        start(mailable);
      }
      return reply.code(202).send({ status: await statusOf(published) });
    },
  );

  function start({ issue, membersIssue }: Mailable) {
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
      ...(membersIssue && { membersIssue }),
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
    sends.set(issue.slug, { controller, done });
  }
};

export default newsletterSendRoutes;
