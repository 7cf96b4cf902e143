import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { readBySchema } from '../../../../contract/schema-problems.js';
import { DeskTierSchema, NewTierSchema, TierChangeSchema } from '../../../../contract/tiers.js';
import { withTransaction } from '../../db/transaction.js';
import { changeTier, createTier, deleteTier } from '../../desk/tier-actions.js';
import { HttpError } from '../../http/errors.js';
import { readDeskTiers } from '../../memberships/tier-catalog.js';
import { PAYMENTS_OFF_FOR_STAFF } from './plan-routes.js';
import { deskStaff } from './desk-staff.js';

const errors = {
  400: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
};
const Slug = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 100 }) });
const Listed = Type.Object({
  tiers: Type.Array(DeskTierSchema),
  /** Null when Stripe's keys are set; else what is off and what to set. */
  paymentsOff: Type.Union([Type.String(), Type.Null()]),
});

/**
 * A body read by its schema (contract/tiers.ts) through contract/schema-problems.ts: the value,
 * its text cleaned, or a 400 `invalid_tier` naming each wrong field.
 */
function readTierBody<T extends TSchema>(schema: T, body: unknown) {
  const reading = readBySchema(schema, body ?? {}, { defaults: false });
  if (reading.ok) return reading.value;
  const problems = reading.problems.map(({ field, message }) => `${field}: ${message}`);
  throw new HttpError(400, 'invalid_tier', `Invalid tier: ${problems.join('; ')}.`);
}

/**
 * The desk's tiers (contract/tiers.ts): owners and editors see them, with how many members hold
 * each and how many posts name it; an owner signed in within 12 hours makes, changes and deletes
 * them (desk/tier-actions.ts). Each change is audited, and drawn on this server before the answer:
 * a tier's name and prices are on the site's pages.
 */
const deskTierRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const currency = app.config.membership.currency;
  const listed = async () => ({
    tiers: await readDeskTiers(app.db.pool, currency),
    paymentsOff: app.payments ? null : PAYMENTS_OFF_FOR_STAFF,
  });
  const answer = async (slug: string) => {
    const tier = (await readDeskTiers(app.db.pool, currency)).find((each) => each.slug === slug);
    if (!tier) throw new Error(`Tier ${slug} vanished after it was changed`);
    return { tier };
  };

  app.get(
    '/tiers',
    {
      schema: { response: { 200: Listed, ...errors } },
      config: { access: 'see-members' },
    },
    listed,
  );

  app.post(
    '/tiers',
    {
      schema: { response: { 201: Type.Object({ tier: DeskTierSchema }), ...errors } },
      config: { access: 'change', changesContent: true, limit: 'desk-tiers' },
    },
    async (request, reply) => {
      const body = readTierBody(NewTierSchema, request.body);
      const tier = await withTransaction(app.db.pool, (tx) =>
        createTier(tx, deskStaff(request), body, { currency }),
      );
      app.plans.changed();
      return reply.code(201).send(await answer(tier.slug));
    },
  );

  app.patch(
    '/tiers/:slug',
    {
      schema: { params: Slug, response: { 200: Type.Object({ tier: DeskTierSchema }), ...errors } },
      config: { access: 'change', changesContent: true, limit: 'desk-tiers' },
    },
    async (request) => {
      const change = readTierBody(TierChangeSchema, request.body);
      const tier = await withTransaction(app.db.pool, (tx) =>
        changeTier(tx, deskStaff(request), request.params.slug, change),
      );
      app.plans.changed();
      return answer(tier.slug);
    },
  );

  app.delete(
    '/tiers/:slug',
    {
      schema: { params: Slug, response: { 200: Listed, ...errors } },
      config: { access: 'change', changesContent: true, limit: 'desk-tiers' },
    },
    async (request) => {
      await withTransaction(app.db.pool, (tx) =>
        deleteTier(tx, deskStaff(request), request.params.slug),
      );
      app.plans.changed();
      return listed();
    },
  );
};

export default deskTierRoutes;
