import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DESK_API,
  DeskAuditPageSchema,
  DeskAuditQuerySchema,
  DeskDashboardSchema,
  DeskMembersQuerySchema,
  DeskStaffSchema,
} from '../../../../contract/desk-api.js';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { listAudit, writeAudit } from '../../desk/audit.js';
import { readDashboard } from '../../desk/dashboard.js';
import { streamMembersCsv } from '../../desk/members-csv.js';
import { countConfirmedSubscribers, streamNewsletterCsv } from '../../desk/newsletter-csv.js';
import {
  changesAllowedUntil,
  requireChangeAllowed,
  requireMaySeeMembers,
} from '../../desk/staff.js';
import type { StripeMode } from '../../stripe/key-check.js';
import { withTransaction } from '../../db/transaction.js';
import deskMemberRoutes from './members.js';

export interface DeskRouteOptions {
  currency: string;
  graceDays: number;
  siteUrl: string;
  siteName: string;
  /** Perk ids and titles, for the dashboard's claims. */
  perkTitles: ReadonlyMap<string, string>;
  /** The Stripe keys' mode, for links into the right Dashboard; null when payments are off. */
  stripeMode: StripeMode | null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The publisher's desk's API. Before anything else of a request is looked at (its body, its
 * parameters), the gate: to anyone who is not staff, every address here answers what an unknown
 * address answers (404, same body, same headers); for staff, a change (any method but GET) needs
 * an owner signed in within 12 hours (403 otherwise). Staff answers are never cached or indexed.
 */
const deskRoutes: FastifyPluginAsyncTypebox<DeskRouteOptions> = async (app, options) => {
  app.addHook('onRequest', async (request) => {
    const staff = await request.requireStaff();
    // Every staff member may ask who they are (the desk's first request); the rest is members
    // and money, which writers never see.
    if (request.url.split('?')[0] !== `${DESK_API}/me`) requireMaySeeMembers(staff);
    if (!SAFE_METHODS.has(request.method)) requireChangeAllowed(staff);
  });
  app.addHook('onSend', async (request, reply) => {
    if (await request.getStaff().catch(() => null)) {
      void reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
    }
  });

  app.get(`${DESK_API}/me`, { schema: { response: { 200: DeskStaffSchema } } }, async (request) => {
    const staff = await request.requireStaff();
    const until = changesAllowedUntil(staff);
    return {
      email: staff.email,
      role: staff.role,
      canChange: until !== null && until.getTime() > Date.now(),
      signedInAt: staff.signedInAt?.toISOString() ?? null,
      changesAllowedUntil: until?.toISOString() ?? null,
      paymentsEnabled: app.payments !== null,
      currency: options.currency,
    };
  });

  app.get(
    `${DESK_API}/dashboard`,
    { schema: { response: { 200: DeskDashboardSchema } } },
    async () =>
      readDashboard(app, {
        currency: options.currency,
        graceDays: options.graceDays,
        perkTitles: options.perkTitles,
      }),
  );

  app.get(
    `${DESK_API}/audit`,
    {
      schema: {
        querystring: DeskAuditQuerySchema,
        response: { 200: DeskAuditPageSchema, 400: ErrorResponseSchema },
      },
    },
    async (request) => listAudit(app, { after: request.query.after }),
  );

  /** The members list (its search and filter) as CSV, streamed; the export is audited. */
  app.get(
    `${DESK_API}/exports/members`,
    { schema: { querystring: DeskMembersQuerySchema } },
    async (request, reply) => {
      const staff = await request.requireStaff();
      const search = { q: request.query.q, filter: request.query.filter };
      await withTransaction(app.db.pool, (tx) =>
        writeAudit(tx, staff, {
          action: 'members_export',
          targetUserId: null,
          before: null,
          after: { search: { q: search.q ?? null, filter: search.filter ?? 'all' } },
        }),
      );
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="members-${day}.csv"`)
        .send(streamMembersCsv(app, search, { currency: options.currency }));
    },
  );

  /** The newsletter's confirmed subscribers as CSV, streamed; the export is audited. */
  app.get(`${DESK_API}/exports/newsletter`, async (request, reply) => {
    const staff = await request.requireStaff();
    await withTransaction(app.db.pool, async (tx) =>
      writeAudit(tx, staff, {
        action: 'newsletter_export',
        targetUserId: null,
        before: null,
        after: { state: 'confirmed', subscribers: await countConfirmedSubscribers(app) },
      }),
    );
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="newsletter-subscribers-${day}.csv"`)
      .send(streamNewsletterCsv(app));
  });

  await app.register(deskMemberRoutes, options);
};

export default deskRoutes;
