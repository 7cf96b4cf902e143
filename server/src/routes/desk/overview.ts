import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DeskAuditPageSchema,
  DeskAuditQuerySchema,
  DeskDashboardSchema,
  DeskMembersExportQuerySchema,
} from '../../../../contract/desk-api.js';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { listAudit, writeAudit } from '../../staff/audit.js';
import { readDashboard } from '../../desk/dashboard.js';
import { streamMembersCsv } from '../../desk/members-csv.js';
import { streamCsv } from '../../desk/csv.js';
import { GHOST_MEMBER_COLUMNS, ghostMembersCsvRows } from '../../imports/ghost-members-csv.js';
import { DomainError } from '../../domain-error.js';
import { requireKnownTier } from '../../desk/members.js';
import { countConfirmedSubscribers, streamNewsletterCsv } from '../../desk/newsletter-csv.js';
import { withTransaction } from '../../db/transaction.js';
import { deskStaff } from './desk-staff.js';

export interface DeskOverviewOptions {
  currency: string;
  graceDays: number;
  /** Perk ids and titles, for the dashboard's claims. */
  perkTitles: ReadonlyMap<string, string>;
}

const attachment = (name: string) => {
  const day = new Date().toISOString().slice(0, 10);
  return `attachment; filename="${name}-${day}.csv"`;
};

/** The dashboard, the audit log and the two exports (members, newsletter subscribers). */
const deskOverviewRoutes: FastifyPluginAsyncTypebox<DeskOverviewOptions> = async (app, options) => {
  app.get(
    '/dashboard',
    { schema: { response: { 200: DeskDashboardSchema } }, config: { access: 'see-members' } },
    async () =>
      readDashboard(app, {
        currency: options.currency,
        graceDays: options.graceDays,
        perkTitles: options.perkTitles,
      }),
  );

  app.get(
    '/audit',
    {
      schema: {
        querystring: DeskAuditQuerySchema,
        response: { 200: DeskAuditPageSchema, 400: ErrorResponseSchema },
      },
      config: { access: 'see-members' },
    },
    async (request) => listAudit(app, { after: request.query.after }),
  );

  /**
   * The members list (its search and filter) as CSV, streamed; or, `format=ghost`, every member in
   * Ghost's members CSV columns. The export is audited.
   */
  app.get(
    '/exports/members',
    {
      schema: { querystring: DeskMembersExportQuerySchema },
      config: { access: 'see-members' },
    },
    async (request, reply) => {
      const staff = deskStaff(request);
      const { q, filter, tier, format } = request.query;
      const search = { q, filter, tier };
      if (format === 'ghost') {
        if (q !== undefined || (filter !== undefined && filter !== 'all') || tier !== undefined) {
          throw new DomainError(
            400,
            'invalid_export',
            'The Ghost members file holds every member, for a move: ask for it without a search, filter or tier.',
          );
        }
        await withTransaction(app.db.pool, (tx) =>
          writeAudit(tx, staff, {
            action: 'members_export',
            targetUserId: null,
            before: null,
            after: { format: 'ghost' },
          }),
        );
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', attachment('members-ghost'))
          .send(streamCsv(GHOST_MEMBER_COLUMNS, ghostMembersCsvRows(app.db.pool)));
      }
      await requireKnownTier(app, search);
      await withTransaction(app.db.pool, (tx) =>
        writeAudit(tx, staff, {
          action: 'members_export',
          targetUserId: null,
          before: null,
          after: {
            search: { q: q ?? null, filter: filter ?? 'all', ...(tier !== undefined && { tier }) },
          },
        }),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment('members'))
        .send(streamMembersCsv(app, search, { currency: options.currency }));
    },
  );

  /**
   * The newsletter's confirmed subscribers as CSV, streamed; the export is audited. The count is
   * read on the audit's own connection: waiting for a second one while holding the first
   * deadlocks a one-connection pool (the embedded database) and, ten at once, any pool.
   */
  app.get('/exports/newsletter', { config: { access: 'see-members' } }, async (request, reply) => {
    const staff = deskStaff(request);
    await withTransaction(app.db.pool, async (tx) =>
      writeAudit(tx, staff, {
        action: 'newsletter_export',
        targetUserId: null,
        before: null,
        after: { state: 'confirmed', subscribers: await countConfirmedSubscribers(tx) },
      }),
    );
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', attachment('newsletter-subscribers'))
      .send(streamNewsletterCsv(app));
  });
};

export default deskOverviewRoutes;
