import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { formatMoney, PLAN_IDS, PLAN_SHAPES } from '../../../../contract/plan-rules.js';
import {
  DeskPlanSchema,
  DeskPlansSchema,
  PlanChangeSchema,
} from '../../../../contract/plans-api.js';
import { withTransaction } from '../../db/transaction.js';
import { HttpError } from '../../http/errors.js';
import { FIRST_TIER_ID } from '../../memberships/derive-membership.js';
import { readDeskPlans, readDeskPlansByTier, readPlans } from '../../memberships/plan-catalog.js';
import { readTiers } from '../../memberships/tier-catalog.js';
import { changePlan } from '../../desk/plan-actions.js';
import { writeAudit } from '../../staff/audit.js';
import { applyPaymentFacts } from '../../stripe/apply-payment-facts.js';
import { retrieveOrNull } from '../../stripe/call-stripe.js';
import { moveSubscriptionPrice, type SubscriptionPlan } from '../../stripe/membership-checkout.js';
import { isCohortPrice } from '../../stripe/cohort-sales.js';
import { readSubscriptionFact } from '../../stripe/read-payment-facts.js';
import { deskStaff } from './desk-staff.js';

/** What the desk says on a site without Stripe keys (docs/payments.md, "Keys"). */
export const PAYMENTS_OFF_FOR_STAFF =
  'Payments are off: this site has no Stripe keys, so nothing is on sale, whatever a plan says, and the site shows no Join buttons, gifts or plans. To sell, set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET (docs/payments.md) and restart the server.';

/** Members are told of a new price at least this long before they first pay it. */
const NOTICE_DAYS = 7;
const DAY_MS = 24 * 3600 * 1000;

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };

/**
 * The desk's plans: owners and editors see every tier's, with how many members hold each; an
 * owner (signed in within 12 hours) turns one of the first tier's on or off, changes its price, or
 * moves the members who pay an older price to it, as before tiers. Another tier's prices change
 * with the tier (tier-routes.ts). Discount codes are offer-routes.ts's.
 */
const deskPlanRoutes: FastifyPluginAsyncTypebox<{
  siteName: string;
  siteUrl: string;
  graceDays: number;
}> = async (app, options) => {
  // The site's name is read as each mail is written: the desk may have renamed it since.
  const { siteUrl, graceDays } = options;
  app.get(
    '/plans',
    {
      schema: { response: { 200: DeskPlansSchema, ...errors } },
      config: { access: 'see-members' },
    },
    async () => {
      const [byTier, tiers] = await Promise.all([
        readDeskPlansByTier(app.db.pool),
        readTiers(app.db.pool),
      ]);
      return {
        plans: byTier.get(FIRST_TIER_ID) ?? [],
        tiers: tiers.map((tier) => ({
          slug: tier.slug,
          name: tier.name,
          visible: tier.visible,
          first: tier.id === FIRST_TIER_ID,
          plans: byTier.get(tier.id) ?? [],
        })),
        paymentsOff: app.payments ? null : PAYMENTS_OFF_FOR_STAFF,
      };
    },
  );

  app.put(
    '/plans/:id',
    {
      schema: {
        params: Type.Object({ id: Type.String({ maxLength: 40 }) }),
        body: PlanChangeSchema,
        response: { 200: Type.Object({ plan: DeskPlanSchema }), ...errors },
      },
      config: { access: 'change' },
    },
    async (request) => {
      const staff = deskStaff(request);
      const id = PLAN_IDS.find((each) => each === request.params.id);
      if (!id) {
        throw new HttpError(
          404,
          'not_found',
          `No plan "${request.params.id}": the plans are ${PLAN_IDS.join(', ')}.`,
        );
      }
      await withTransaction(app.db.pool, (tx) => changePlan(tx, staff, id, request.body));
      app.plans.changed();
      const plan = (await readDeskPlans(app.db.pool)).find((each) => each.id === id);
      if (!plan) throw new Error(`Plan ${id} vanished after it was changed`);
      return { plan };
    },
  );

  /**
   * Moves the first tier's members who subscribed at an older price of one of its plans to its
   * price now (Stripe's price change with proration off: charged from their next renewal), each
   * told by mail first. Those who renew within NOTICE_DAYS are left for a later move (the notice
   * would come too late), and those without an address (anonymous payers) are not moved: nobody
   * could tell them.
   */
  app.post(
    '/plans/:id/move-subscribers',
    {
      schema: { params: Type.Object({ id: Type.String({ maxLength: 40 }) }) },
      config: { access: 'change' },
    },
    async (request) => {
      const staff = deskStaff(request);
      const payments = app.requirePayments();
      const id = request.params.id;
      if (id !== 'monthly' && id !== 'yearly') {
        throw new HttpError(404, 'not_found', `No subscription plan "${id.slice(0, 40)}".`);
      }
      const plan = (await readPlans(app.db.pool)).find(
        (each): each is SubscriptionPlan => each.id === id,
      );
      if (!plan) throw new HttpError(404, 'not_found', `No plan "${id}".`);
      const { rows } = await app.db.pool.query<{
        id: string;
        userId: string;
        email: string | null;
        amountCents: number;
      }>(
        `SELECT s.id, s."userId", u.email, s."amountCents" FROM subscriptions s
           JOIN users u ON u.id = s."userId"
          WHERE s.status IN ('active', 'trialing') AND s.interval = $1 AND s."tierId" = $3
            AND s."amountCents" IS NOT NULL AND s."amountCents" <> $2
          ORDER BY s."stripeCreatedAt"`,
        [PLAN_SHAPES[id].interval, plan.amountCents, FIRST_TIER_ID],
      );
      const result = { moved: 0, renewsSoon: 0, noAddress: 0, notTold: 0 };
      const price = formatMoney(plan.amountCents, plan.currency);
      const each = PLAN_SHAPES[id].interval;
      for (const row of rows) {
        if (!row.email) {
          result.noAddress += 1;
          continue;
        }
        const subscription = await retrieveOrNull(payments.stripe, 'read a subscription', (s) =>
          s.subscriptions.retrieve(row.id),
        );
        const item = subscription?.items.data.find((one) =>
          isCohortPrice(one.price, payments.membershipPrice),
        );
        if (!subscription || !item) continue;
        const renewsAt = item.current_period_end * 1000;
        if (renewsAt - Date.now() < NOTICE_DAYS * DAY_MS) {
          result.renewsSoon += 1;
          continue;
        }
        const on = new Date(renewsAt).toLocaleDateString('en-US', {
          dateStyle: 'long',
          timeZone: 'UTC',
        });
        // The notice first: a member who was not told (the mail failed) is not moved.
        const told = await app.mailer
          .send({
            to: row.email,
            subject: `Your ${options.siteName} membership: ${price} a ${each} from ${on}`,
            text:
              `Your ${options.siteName} membership renews on ${on}. From then on it costs ${price} a ${each}, ` +
              `instead of ${formatMoney(row.amountCents, plan.currency)}. Nothing changes before then, ` +
              `and nothing is charged now.\n\n` +
              `To change your plan or cancel, open ${siteUrl}/account before that day.\n`,
          })
          .then(
            () => true,
            (error: unknown) => {
              request.log.error({ err: error }, 'could not mail a new price: member not moved');
              return false;
            },
          );
        if (!told) {
          result.notTold += 1;
          continue;
        }
        await moveSubscriptionPrice(payments, {
          subscriptionId: row.id,
          itemId: item.id,
          plan,
          siteName: options.siteName,
        });
        const fact = await readSubscriptionFact(payments, row.id);
        if (fact) {
          await withTransaction(app.db.pool, (tx) => applyPaymentFacts(tx, [fact], { graceDays }));
        }
        result.moved += 1;
      }
      await withTransaction(app.db.pool, (tx) =>
        writeAudit(tx, staff, {
          action: 'plan_move_subscribers',
          targetUserId: null,
          before: { plan: id, olderPrices: rows.length },
          after: { plan: id, amountCents: plan.amountCents, ...result },
        }),
      );
      return result;
    },
  );
};

export default deskPlanRoutes;
