import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { DeskSeatsSchema, SeatSettingsBodySchema } from '../../../../contract/seats.js';
import { decideSeatRequest, readDeskSeats, setAutoGrant } from '../../seats/seats.js';
import { deskStaff } from './desk-staff.js';

const errors = {
  400: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
};
const params = Type.Object({ id: Type.String({ format: 'uuid' }) });
const SeatsAnswer = Type.Object({ seats: DeskSeatsSchema });

/**
 * The desk's solidarity seats: owners and editors see the pool, the fundings and the
 * requests; an owner grants or declines a request, and sets how many are granted each month on
 * their own.
 */
const deskSeatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const answer = async () => ({ seats: await readDeskSeats(app.db.pool) });

  app.get(
    '/seats',
    { schema: { response: { 200: SeatsAnswer, ...errors } }, config: { access: 'see-members' } },
    answer,
  );

  app.put(
    '/seats',
    {
      schema: { body: SeatSettingsBodySchema, response: { 200: SeatsAnswer, ...errors } },
      config: { access: 'change' },
    },
    async (request) => {
      await setAutoGrant(app.db.pool, deskStaff(request), request.body.autoGrantPerMonth);
      await app.giving.deliverNow(); // a higher number may grant waiting requests at once
      return answer();
    },
  );

  for (const decision of ['grant', 'decline'] as const) {
    app.post(
      `/seats/requests/:id/${decision}`,
      {
        schema: { params, response: { 200: SeatsAnswer, ...errors } },
        config: { access: 'change' },
      },
      async (request) => {
        await decideSeatRequest(app.giving.deps, deskStaff(request), {
          requestId: request.params.id,
          grant: decision === 'grant',
        });
        app.giving.deliverSoon();
        return answer();
      },
    );
  }
};

export default deskSeatRoutes;
