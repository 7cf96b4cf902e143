import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { UUID_PATTERN } from '../../../../contract/constants.js';
import {
  AccountDeleteBodySchema,
  AccountSessionsResponseSchema,
  EmailChangeBodySchema,
  EmailChangeConfirmBodySchema,
  ErrorResponseSchema,
  MessageResponseSchema,
  RecentSignInResponseSchema,
  UserResponseSchema,
} from '../../../../contract/api.js';
import {
  confirmEmailChange,
  EMAIL_CHANGE_TTL_MS,
  hasPassword,
  recentSignInUntil,
  requestEmailChange,
  requireOwnerPresent,
} from '../../accounts/accounts.js';
import { HttpError } from '../../http/errors.js';
import { accountOf } from '../../plugins/app/route-access.js';
import { deleteUserAndLedger, liveSubscriptionIds } from '../../memberships/memberships.js';
import {
  callStripe,
  logStripeFailure,
  PaymentsUnavailableError,
} from '../../stripe/call-stripe.js';
import { cancelSubscription } from '../../stripe/stripe-actions.js';
import {
  endOtherUserSessions,
  endUserSession,
  listUserSessions,
} from '../../sessions/user-sessions.js';
import { toUser } from '../../users/users.js';
import { describeBrowser } from '../../sessions/describe-browser.js';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  429: ErrorResponseSchema,
  502: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

export interface AccountRouteOptions {
  siteUrl: string;
  siteName: string;
}

const accountRoutes: FastifyPluginAsyncTypebox<AccountRouteOptions> = async (app, options) => {
  // The site's name is read as each mail is written: the desk may have renamed it since.
  const { siteUrl } = options;

  /**
   * Asks for a new email: a confirmation link goes to the new address and a notice to the current
   * one. Nothing changes until the link is confirmed. The answer is the same whether or not the
   * new address belongs to another account.
   */
  app.post(
    '/api/account/email',
    {
      schema: { body: EmailChangeBodySchema, response: { 202: MessageResponseSchema, ...errors } },
      config: { access: 'signed-in', changesState: true, limit: 'account' },
    },
    async (request, reply) => {
      const { userId, sessionId } = accountOf(request);
      const change = await requestEmailChange(app, { userId, sessionId, ...request.body });
      const send = (mail: { to: string; subject: string; text: string }) =>
        app.mailer
          .send(mail)
          .catch((error: unknown) =>
            request.log.error({ err: error }, 'could not send an email-change mail'),
          );
      const hours = EMAIL_CHANGE_TTL_MS / 3_600_000;
      if (change.token) {
        void send({
          to: change.newEmail,
          subject: `Confirm your new ${options.siteName} email`,
          text:
            `Someone (hopefully you) asked to use this address for their ${options.siteName} account.\n\n` +
            `Open this link and press Confirm to make it the account's email. It works once, for ${hours} hours:\n\n` +
            `${siteUrl}/confirm-email#token=${change.token}\n\n` +
            `If it was not you, ignore this mail: nothing changes.\n`,
        });
      }
      void send({
        to: change.currentEmail,
        subject: `Your ${options.siteName} email is about to change`,
        text:
          `Someone signed in to your ${options.siteName} account asked to change its email to ${change.newEmail}.\n` +
          `It changes only when the link sent to that address is confirmed.\n\n` +
          `If it was not you, change your password now (${siteUrl}/reset-password): that signs everybody else out.\n`,
      });
      return reply.code(202).send({
        message: `We sent a confirmation link to ${change.newEmail}. Your email changes when you open it and press Confirm.`,
      });
    },
  );

  /**
   * The page the link opens posts here: the email changes, every session of the account but the
   * one confirming is signed out, and the Stripe customer gets the new address for receipts.
   */
  app.post(
    '/api/account/email/confirm',
    {
      schema: {
        body: EmailChangeConfirmBodySchema,
        response: { 200: MessageResponseSchema, ...errors },
      },
      config: { access: 'anyone', changesState: true, limit: 'email-change-confirm' },
    },
    async (request) => {
      const changed = await confirmEmailChange(app, request.body);
      const session = await request.getSession();
      const keep = session?.userId === changed.userId ? session.sessionId : null;
      await endOtherUserSessions(app, changed.userId, keep);
      for (const customerId of app.payments ? changed.stripeCustomerIds : []) {
        await callStripe(app.requirePayments().stripe, 'update the customer’s email', (stripe) =>
          stripe.customers.update(customerId, { email: changed.email }),
        ).catch((error: unknown) => {
          // Our record is right; Stripe's copy catches up the next time the email changes.
          if (error instanceof PaymentsUnavailableError) logStripeFailure(request.log, error);
          else throw error;
        });
      }
      if (changed.oldEmail) {
        // The old address hears of it, and how to take the account back if it was not its owner.
        void app.mailer
          .send({
            to: changed.oldEmail,
            subject: `Your ${options.siteName} email was changed`,
            text:
              `The email of your ${options.siteName} account is now ${changed.email}: this address no longer ` +
              `signs in, and the newsletter now goes there.\n\n` +
              `If you did not do this, write to us by replying to this mail.\n`,
          })
          .catch((error: unknown) =>
            request.log.error({ err: error }, 'could not send an email-changed notice'),
          );
      }
      return { message: `Your email is now ${changed.email}.` };
    },
  );

  /**
   * Deletes the account: every live Cohort subscription is cancelled at Stripe first (if that
   * fails, nothing is deleted), then the user and everything of theirs goes, their id stays marked
   * deleted so no late payment brings them back, and the browser starts afresh.
   */
  app.post(
    '/api/account/delete',
    {
      schema: { body: AccountDeleteBodySchema, response: { 200: UserResponseSchema, ...errors } },
      config: { access: 'signed-in', changesState: true, limit: 'account' },
    },
    async (request, reply) => {
      const { userId, sessionId } = accountOf(request);
      await requireOwnerPresent(app, { userId, sessionId, password: request.body.password });
      for (const subscriptionId of await liveSubscriptionIds(app, userId)) {
        await cancelSubscription(app.requirePayments(), subscriptionId);
      }
      await deleteUserAndLedger(app, userId);
      const visitor = await app.sessions.startAnonymous(request, reply);
      return { user: toUser(visitor, null) };
    },
  );

  /** What a change of address or password, or a deletion, needs from this browser. */
  app.get(
    '/api/account/recent-sign-in',
    {
      schema: { response: { 200: RecentSignInResponseSchema, ...errors } },
      config: { access: 'signed-in', changesState: false },
    },
    async (request) => {
      const session = accountOf(request);
      const until = await recentSignInUntil(app, session.sessionId);
      return {
        hasPassword: await hasPassword(app, session.userId),
        recentSignInUntil: until?.toISOString() ?? null,
      };
    },
  );

  const sessionsOf = async (userId: string, current: string | null) => ({
    sessions: (await listUserSessions(app, userId)).map((row) => ({
      id: row.id,
      userAgent: row.userAgent,
      browser: describeBrowser(row.userAgent),
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      signInMethod: row.signInMethod,
      current: row.id === current,
    })),
  });

  /** The browsers signed in to this account. */
  app.get(
    '/api/account/sessions',
    {
      schema: { response: { 200: AccountSessionsResponseSchema, ...errors } },
      config: { access: 'signed-in', changesState: false },
    },
    async (request) => {
      const session = accountOf(request);
      return sessionsOf(session.userId, session.sessionId);
    },
  );

  /** Signs one other browser out. This one signs out with POST /api/auth/logout. */
  app.post(
    '/api/account/sessions/:id/end',
    {
      schema: {
        params: Type.Object({ id: Type.String({ pattern: UUID_PATTERN.source }) }),
        response: { 200: AccountSessionsResponseSchema, ...errors },
      },
      config: { access: 'signed-in', changesState: true },
    },
    async (request) => {
      const session = accountOf(request);
      if (request.params.id === session.sessionId) {
        throw new HttpError(
          409,
          'current_session',
          'That is this browser: use Sign out to end its session.',
        );
      }
      if (!(await endUserSession(app, session.userId, request.params.id))) {
        throw new HttpError(404, 'not_found', 'No such session: it may have ended already.');
      }
      return sessionsOf(session.userId, session.sessionId);
    },
  );

  /** "Sign out everywhere else". */
  app.post(
    '/api/account/sessions/end-others',
    {
      schema: { response: { 200: AccountSessionsResponseSchema, ...errors } },
      config: { access: 'signed-in', changesState: true },
    },
    async (request) => {
      const session = accountOf(request);
      await endOtherUserSessions(app, session.userId, session.sessionId);
      return sessionsOf(session.userId, session.sessionId);
    },
  );
};

export default accountRoutes;
