import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema, MessageResponseSchema } from '../../../../contract/api.js';
import {
  NEWSLETTER_PATHS,
  NewsletterSubscribeBodySchema,
  NewsletterSubscriptionBodySchema,
  NewsletterSubscriptionSchema,
  NewsletterTokenBodySchema,
  NewsletterTokenQuerySchema,
} from '../../../../contract/newsletters.js';
import { HttpError } from '../../http/errors.js';
import { accountOf } from '../../plugins/app/route-access.js';
import {
  confirmSubscription,
  getAccountSubscription,
  resubscribe,
  setAccountSubscription,
  subscribe,
  unsubscribe,
} from '../../newsletter/subscribers.js';
import { signUpMail } from '../../newsletter/sign-up-mail.js';
import { theNewsletterOf } from '../../../../contract/newsletter-name.js';
import { createUnsubscribeTokens } from '../../newsletter/tokens.js';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  429: ErrorResponseSchema,
};
/** The answer of the routes that say what they did in a sentence. */
const messageAnswer = { 200: MessageResponseSchema, ...errors };

export interface NewsletterRouteOptions {
  siteUrl: string;
  siteName: string;
  sessionSecret: string;
}

/** What every sign-up is told, whatever the address's story: nothing about it leaks. */
export const CHECK_INBOX_MESSAGE =
  'Check your inbox: we sent a link to confirm your subscription. Nothing is sent until you press the button on the page it opens.';

const invalidLink = () =>
  new HttpError(
    400,
    'invalid_token',
    'This unsubscribe link is not one of ours. Use the link from the mail.',
  );

const newsletterRoutes: FastifyPluginAsyncTypebox<NewsletterRouteOptions> = async (
  app,
  options,
) => {
  // The site's name is read as each answer is written: the desk may have renamed it since.
  const { siteUrl } = options;
  const tokens = createUnsubscribeTokens(options.sessionSecret);
  /** Unsubscribes or resubscribes whom an unsubscribe link names; a link not ours is refused. */
  async function changeByLink(token: string, change: typeof unsubscribe) {
    const subscriberId = tokens.verify(token);
    const changed = subscriberId ? await change(app, subscriberId) : null;
    if (!changed) throw invalidLink();
    return changed;
  }

  // RFC 8058's one-click POST carries `List-Unsubscribe=One-Click` as a form: accepted (and
  // ignored: the token in the address is what counts) on this plugin's routes only.
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
      done(null, { form: body }),
    );
  }

  app.post(
    '/api/newsletter/subscribe',
    {
      schema: {
        body: NewsletterSubscribeBodySchema,
        response: {
          200: Type.Object({ message: Type.String(), subscribed: Type.Boolean() }),
          202: Type.Object({ message: Type.String(), subscribed: Type.Boolean() }),
          ...errors,
        },
      },
      config: { access: 'anyone', changesState: true, limit: 'newsletter' },
    },
    async (request, reply) => {
      const session = await request.getSession();
      // Only a proven address is the account's own: any other goes through double opt-in.
      const account =
        session?.user?.email != null && session.user.emailVerified
          ? { userId: session.userId, email: session.user.email }
          : null;
      const outcome = await subscribe(app, { email: request.body.email, account });
      if (outcome.kind === 'subscribed') {
        return reply.code(200).send({
          message: `You are subscribed: the newsletter goes to ${outcome.email}.`,
          subscribed: true,
        });
      }
      const { mail, email } = outcome;
      if (mail) {
        void app.mailer
          .send(signUpMail({ siteUrl, siteName: options.siteName }, email, mail))
          .catch((error: unknown) =>
            request.log.error({ err: error }, 'could not send a newsletter confirmation mail'),
          );
      }
      return reply.code(202).send({ message: CHECK_INBOX_MESSAGE, subscribed: false });
    },
  );

  /** The button on the page the confirmation link opens (a GET there confirms nothing). */
  app.post(
    '/api/newsletter/confirm',
    {
      schema: { body: NewsletterTokenBodySchema, response: messageAnswer },
      config: { access: 'anyone', changesState: true, limit: 'newsletter-confirm' },
    },
    async (request) => {
      const { email } = await confirmSubscription(app, request.body.token);
      return { message: `Subscribed: ${theNewsletterOf(options.siteName)} will come to ${email}.` };
    },
  );

  /**
   * RFC 8058 one-click unsubscribe: mail clients POST here (no session, no cookie); the
   * unsubscribe page posts here too. Idempotent.
   */
  app.post(
    '/api/newsletter/unsubscribe',
    {
      schema: { querystring: NewsletterTokenQuerySchema, response: messageAnswer },
      config: { access: 'anyone', changesState: true, limit: 'newsletter-unsubscribe' },
    },
    async (request) => {
      const { email } = await changeByLink(request.query.token, unsubscribe);
      return { message: `${email} is unsubscribed: no more newsletters will come to it.` };
    },
  );

  /**
   * A browser that opens the List-Unsubscribe address (some mail clients do) lands on the
   * unsubscribe page, which POSTs: a GET itself changes nothing (link scanners follow links).
   */
  app.get(
    '/api/newsletter/unsubscribe',
    {
      schema: { querystring: NewsletterTokenQuerySchema },
      config: { access: 'anyone', changesState: false },
    },
    async (request, reply) =>
      reply.redirect(
        `${NEWSLETTER_PATHS.unsubscribe}#token=${encodeURIComponent(request.query.token)}`,
        303,
      ),
  );

  app.post(
    '/api/newsletter/resubscribe',
    {
      schema: { body: NewsletterTokenBodySchema, response: messageAnswer },
      config: { access: 'anyone', changesState: true, limit: 'newsletter-resubscribe' },
    },
    async (request) => {
      const { email } = await changeByLink(request.body.token, resubscribe);
      return { message: `Welcome back: the newsletter will come to ${email} again.` };
    },
  );

  app.get(
    '/api/newsletter/subscription',
    {
      schema: { response: { 200: NewsletterSubscriptionSchema, ...errors } },
      config: { access: 'proven-address', changesState: false },
    },
    async (request) => getAccountSubscription(app, accountOf(request)),
  );

  app.post(
    '/api/newsletter/subscription',
    {
      schema: {
        body: NewsletterSubscriptionBodySchema,
        response: { 200: NewsletterSubscriptionSchema, ...errors },
      },
      config: { access: 'proven-address', changesState: true, limit: 'newsletter-subscription' },
    },
    async (request) => setAccountSubscription(app, accountOf(request), request.body.subscribed),
  );
};

export default newsletterRoutes;
