import type { FastifyPluginAsync } from 'fastify';
import deskGiftRoutes from './gifts.js';
import deskImportRoutes from './imports.js';
import deskMissingImageRoutes from './missing-images.js';
import deskMemberRoutes, { type DeskMemberOptions } from './members.js';
import deskOfferRoutes from './offer-routes.js';
import deskOverviewRoutes, { type DeskOverviewOptions } from './overview.js';
import deskPlanRoutes from './plan-routes.js';
import deskSeatRoutes from './seats.js';
import deskTierRoutes from './tier-routes.js';

export type MembersAndMoneyOptions = DeskMemberOptions & DeskOverviewOptions;

/**
 * The desk's members and money (the dashboard, the audit log, exports, members, plans, tiers,
 * offers, gifts, seats) and its imports. Each route says who may call it (desk-access.ts): owners and
 * editors see (`see-members`: never writers), and a change is an owner's, signed in within 12
 * hours (`change`); imports and the Ghost export are owners' alone.
 */
const membersAndMoney: FastifyPluginAsync<MembersAndMoneyOptions> = async (app, options) => {
  await app.register(deskOverviewRoutes, options);
  await app.register(deskMemberRoutes, options);
  await app.register(deskPlanRoutes, options);
  await app.register(deskTierRoutes);
  await app.register(deskOfferRoutes, options);
  await app.register(deskGiftRoutes);
  await app.register(deskSeatRoutes);
  await app.register(deskImportRoutes);
  await app.register(deskMissingImageRoutes);
};

export default membersAndMoney;
