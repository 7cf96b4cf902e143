import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorResponseSchema,
  PerkParamsSchema,
  PerkRedemptionSchema,
} from '../../../../contract/api.js';
import { isPerkLive } from '../../../../contract/perks.js';
import { HttpError } from '../../http/errors.js';
import { sessionOf } from '../../plugins/app/route-access.js';
import type { PerkCatalog } from '../../perks/catalog.js';
import { redeemPerk } from '../../perks/redeem.js';

export interface PerkRouteOptions {
  catalog: PerkCatalog;
}

/**
 * Redeeming a partner perk. Everyone sees the offers (bundled content); only here, and only for a
 * member, does a code or link leave the server. A POST: it may claim a code.
 */
const perkRoutes: FastifyPluginAsyncTypebox<PerkRouteOptions> = async (app, { catalog }) => {
  app.post(
    '/api/perks/:id/redeem',
    {
      schema: {
        params: PerkParamsSchema,
        response: {
          200: PerkRedemptionSchema,
          401: ErrorResponseSchema,
          403: ErrorResponseSchema,
          404: ErrorResponseSchema,
          409: ErrorResponseSchema,
          429: ErrorResponseSchema,
        },
      },
      config: {
        access: 'member',
        changesState: true,
        limit: 'perk-redemption',
        refusal: { message: 'Perks are for members: join to redeem this offer.' },
      },
    },
    async (request) => {
      const perk = catalog.find(request.params.id);
      // A sample perk the site no longer shows (its samples removed) is no offer either.
      const shown = app.siteContent.current().perks.some((item) => item.id === perk?.id);
      if (!perk || !isPerkLive(perk) || !shown) {
        throw new HttpError(404, 'perk_not_found', 'There is no such offer, or it has ended.');
      }
      const session = sessionOf(request);
      const redemption = await redeemPerk({ db: app.db, log: request.log }, perk, session.userId);
      return { perkId: perk.id, ...redemption };
    },
  );
};

export default perkRoutes;
