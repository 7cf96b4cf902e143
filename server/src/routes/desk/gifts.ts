import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { isValidEmail, normalizeEmail } from '../../../../contract/account-rules.js';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { DeskGiftSchema, GiftAddressBodySchema } from '../../../../contract/gifts.js';
import { listUnclaimedGifts, resendGift } from '../../gifts/gifts.js';
import { HttpError } from '../../http/errors.js';
import { deskStaff } from './desk-staff.js';

const errors = {
  400: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  502: ErrorResponseSchema,
};
const GiftAnswer = Type.Object({ gift: DeskGiftSchema, mailed: Type.Boolean() });
const params = Type.Object({ id: Type.String({ format: 'uuid' }) });

/**
 * The desk's gifts: owners and editors see the gifts paid for and not claimed; an owner
 * mails one's claim link again, or to a corrected address. Either way the old link stops working.
 */
const deskGiftRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/gifts',
    {
      schema: { response: { 200: Type.Object({ gifts: Type.Array(DeskGiftSchema) }), ...errors } },
      config: { access: 'see-members' },
    },
    async () => ({ gifts: await listUnclaimedGifts(app.db.pool) }),
  );

  app.post(
    '/gifts/:id/resend',
    { schema: { params, response: { 200: GiftAnswer, ...errors } }, config: { access: 'change' } },
    async (request) =>
      resendGift(app.giving.deps, deskStaff(request), { giftId: request.params.id }),
  );

  app.post(
    '/gifts/:id/address',
    {
      schema: { params, body: GiftAddressBodySchema, response: { 200: GiftAnswer, ...errors } },
      config: { access: 'change' },
    },
    async (request) => {
      const recipientEmail = normalizeEmail(request.body.recipientEmail);
      if (!isValidEmail(recipientEmail)) {
        throw new HttpError(400, 'invalid_email', 'That is not a valid email address.');
      }
      return resendGift(app.giving.deps, deskStaff(request), {
        giftId: request.params.id,
        recipientEmail,
      });
    },
  );
};

export default deskGiftRoutes;
