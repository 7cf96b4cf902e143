import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DESK_API } from '../../../../contract/desk-api.js';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { PLAN_IDS } from '../../../../contract/plans.js';
import { DeskPlanSchema, PlanChangeSchema } from '../../../../contract/plans-api.js';
import { withTransaction } from '../../db/transaction.js';
import { requireChangeAllowed, requireMaySeeMembers } from '../../desk/staff.js';
import { HttpError } from '../../http/errors.js';
import { changePlan, readDeskPlans } from '../../memberships/plans.js';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };

/**
 * The desk's plans: owners and editors see them, with how many members hold each; an owner (signed
 * in within 12 hours) turns one on or off or changes its price. Staff only, as all of the desk.
 */
const deskPlanRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', async (request) => {
    const staff = await request.requireStaff();
    requireMaySeeMembers(staff);
    if (request.method !== 'GET' && request.method !== 'HEAD') requireChangeAllowed(staff);
  });
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
  });

  app.get(
    `${DESK_API}/plans`,
    {
      schema: { response: { 200: Type.Object({ plans: Type.Array(DeskPlanSchema) }), ...errors } },
    },
    async () => ({ plans: await readDeskPlans(app.db.pool) }),
  );

  app.put(
    `${DESK_API}/plans/:id`,
    {
      schema: {
        params: Type.Object({ id: Type.String({ maxLength: 40 }) }),
        body: PlanChangeSchema,
        response: { 200: Type.Object({ plan: DeskPlanSchema }), ...errors },
      },
    },
    async (request) => {
      const staff = await request.requireStaff();
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
};

export default deskPlanRoutes;
