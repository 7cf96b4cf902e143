import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { DeskOfferSchema, OfferBodySchema } from '../../../../contract/offers.js';
import { withTransaction } from '../../db/transaction.js';
import { createOffer, endOffer } from '../../desk/offer-actions.js';
import { HttpError } from '../../http/errors.js';
import { deskOffer, listOffers } from '../../memberships/offers.js';
import { readPlans } from '../../memberships/plan-catalog.js';
import { defaultTier, readTiers, tierBySlug } from '../../memberships/tier-catalog.js';
import { deskStaff } from './desk-staff.js';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };

/**
 * The desk's offers, discount codes (docs/decisions/0023-offers-and-trials.md), each for plans of
 * one tier: owners make and end them; owners and editors see each one's redemptions.
 */
const deskOfferRoutes: FastifyPluginAsyncTypebox<{ siteUrl: string }> = async (
  app,
  { siteUrl },
) => {
  app.get(
    '/offers',
    {
      schema: {
        response: { 200: Type.Object({ offers: Type.Array(DeskOfferSchema) }), ...errors },
      },
      config: { access: 'see-members' },
    },
    async () => ({ offers: await listOffers(app.db.pool, siteUrl) }),
  );
  app.post(
    '/offers',
    {
      schema: {
        body: OfferBodySchema,
        response: {
          201: Type.Object({ offer: DeskOfferSchema }),
          ...errors,
          409: ErrorResponseSchema,
        },
      },
      config: { access: 'change' },
    },
    async (request, reply) => {
      const staff = deskStaff(request);
      const offer = await withTransaction(app.db.pool, async (tx) => {
        // Any tier, hidden ones too: an owner may make a code for a tier not on show.
        const tiers = await readTiers(tx);
        const tier = request.body.tier ? tierBySlug(tiers, request.body.tier) : defaultTier(tiers);
        const plans = await readPlans(tx, tier.id);
        return createOffer(tx, staff, request.body, {
          currency: plans[0]?.currency ?? 'usd',
          tier,
          plans,
          stripe: app.payments?.stripe ?? null,
        });
      });
      return reply.code(201).send({ offer: deskOffer(offer, undefined, siteUrl) });
    },
  );
  app.post(
    '/offers/:id/end',
    {
      schema: {
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 200: Type.Object({ offer: DeskOfferSchema }), ...errors },
      },
      config: { access: 'change' },
    },
    async (request) => {
      const staff = deskStaff(request);
      await withTransaction(app.db.pool, (tx) =>
        endOffer(tx, staff, request.params.id, app.payments?.stripe ?? null),
      );
      const offer = (await listOffers(app.db.pool, siteUrl)).find(
        (each) => each.id === request.params.id,
      );
      if (!offer) throw new HttpError(404, 'not_found', 'No such offer.');
      return { offer };
    },
  );
};

export default deskOfferRoutes;
