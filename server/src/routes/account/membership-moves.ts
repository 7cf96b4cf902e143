import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import { ErrorResponseSchema, UserResponseSchema } from '../../../../contract/api.js';
import { SwitchPlanBodySchema } from '../../../../contract/plans-api.js';
import {
  AccountTierSchema,
  TierMoveBodySchema,
  TierMoveResponseSchema,
} from '../../../../contract/tier-moves.js';
import { accountOf } from '../../plugins/app/route-access.js';
import { moveTier, readAccountTier, switchPlan } from '../../stripe/membership-moves.js';
import { findSessionUser, toUser } from '../../users/users.js';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  402: ErrorResponseSchema,
  403: ErrorResponseSchema,
  409: ErrorResponseSchema,
  502: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

const refusal = { message: 'Create an account to manage billing.' };

/**
 * A member's subscription from /account (docs/decisions/0031-tier-moves.md): monthly ↔ yearly,
 * and a move to another tier; and what their tier is and may become.
 */
const membershipMoveRoutes: FastifyPluginAsyncTypebox<{ graceDays: number }> = async (
  app,
  options,
) => {
  const { graceDays } = options;
  /** The publication's name now, for Stripe's descriptions: the desk may have renamed it. */
  const siteNameNow = () => app.siteContent.current().settings.title;
  const deps = (log: FastifyBaseLogger) => ({ ...app.requirePayments(), db: app.db, log });
  const userNow = async (userId: string) => toUser(userId, await findSessionUser(app, userId));

  /**
   * Monthly ↔ yearly (docs/decisions/0022-plans.md): Stripe starts the new period now, credits
   * the old one's unused time and charges the rest at once; the ledger records the invoice as it
   * does any, so the time covered is the time paid.
   */
  app.post(
    '/api/account/plan',
    {
      schema: { body: SwitchPlanBodySchema, response: { 200: UserResponseSchema, ...errors } },
      config: { access: 'signed-in', changesState: true, needsPayments: true, refusal },
    },
    async (request) => {
      const { userId } = accountOf(request);
      await switchPlan(deps(request.log), {
        userId,
        plan: request.body.plan,
        catalog: await app.plans.catalog(),
        siteName: siteNameNow(),
        graceDays,
      });
      return { user: await userNow(userId) };
    },
  );

  /** The member's tier, what their subscription renews as, and the tiers they may move to. */
  app.get(
    '/api/account/tier',
    {
      schema: { response: { 200: AccountTierSchema, ...errors } },
      config: { access: 'signed-in', changesState: false, refusal },
    },
    async (request) =>
      readAccountTier(app.db.pool, accountOf(request).userId, await app.plans.catalog()),
  );

  /**
   * A move to another tier: to a dearer one now, the difference for the time left charged at
   * once; to a cheaper one from the period's end.
   */
  app.post(
    '/api/account/tier',
    {
      schema: { body: TierMoveBodySchema, response: { 200: TierMoveResponseSchema, ...errors } },
      config: { access: 'signed-in', changesState: true, needsPayments: true, refusal },
    },
    async (request) => {
      const { userId } = accountOf(request);
      const catalog = await app.plans.catalog();
      await moveTier(deps(request.log), {
        userId,
        slug: request.body.tier,
        catalog,
        siteName: siteNameNow(),
        graceDays,
      });
      return {
        user: await userNow(userId),
        tier: await readAccountTier(app.db.pool, userId, catalog),
      };
    },
  );
};

export default membershipMoveRoutes;
