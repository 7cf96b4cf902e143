import type { FastifyPluginAsync } from 'fastify';
import { requireChangeAllowed, requireMaySeeMembers } from '../../desk/staff.js';
import { deskStaff } from './desk-staff.js';
import deskGiftRoutes from './gifts.js';
import deskImportRoutes from './imports.js';
import deskMemberRoutes, { type DeskMemberOptions } from './members.js';
import deskOfferRoutes from './offer-routes.js';
import deskOverviewRoutes, { type DeskOverviewOptions } from './overview.js';
import deskPlanRoutes from './plan-routes.js';
import deskSeatRoutes from './seats.js';

export type MembersAndMoneyOptions = DeskMemberOptions & DeskOverviewOptions;

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The desk's members and money (the dashboard, the audit log, exports, members, plans, offers,
 * gifts, seats), inside the desk's staff gate: never writers (403), and a change (any method but
 * GET) only by an owner signed in within 12 hours (403, sign in again). This hook is the rule:
 * nothing registered here checks it again.
 */
const membersAndMoney: FastifyPluginAsync<MembersAndMoneyOptions> = async (app, options) => {
  app.addHook('onRequest', async (request) => {
    const staff = deskStaff(request);
    requireMaySeeMembers(staff);
    if (!SAFE_METHODS.has(request.method)) requireChangeAllowed(staff);
  });

  await app.register(deskOverviewRoutes, options);
  await app.register(deskMemberRoutes, options);
  await app.register(deskPlanRoutes, options);
  await app.register(deskOfferRoutes, options);
  await app.register(deskGiftRoutes);
  await app.register(deskSeatRoutes);
  await app.register(deskImportRoutes);
};

export default membersAndMoney;
