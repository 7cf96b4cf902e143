import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import {
  DeskActionResultSchema,
  DeskCompBodySchema,
  DeskCompParamsSchema,
  DeskMemberParamsSchema,
  DeskMemberSchema,
  DeskMembersPageSchema,
  DeskMembersQuerySchema,
} from '../../../../contract/desk-api.js';
import {
  endCompAsStaff,
  endSessionsAsStaff,
  grantCompAsStaff,
  rereadFromStripe,
  sendPasswordResetAsStaff,
} from '../../desk/member-actions.js';
import { listMembers, readMember } from '../../desk/members.js';
import type { StripeMode } from '../../stripe/key-check.js';
import { deskStaff } from './desk-staff.js';

const errors = {
  400: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  502: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

export interface DeskMemberOptions {
  currency: string;
  graceDays: number;
  siteUrl: string;
  siteName: string;
  /** The Stripe keys' mode, for links into the right Dashboard; null when payments are off. */
  stripeMode: StripeMode | null;
}

/** The members list, one member's record, and what an owner can do to a member. */
const deskMemberRoutes: FastifyPluginAsyncTypebox<DeskMemberOptions> = async (app, options) => {
  app.get(
    '/members',
    {
      schema: {
        querystring: DeskMembersQuerySchema,
        response: { 200: DeskMembersPageSchema, ...errors },
      },
      config: { access: 'see-members' },
    },
    async (request) => listMembers(app, request.query),
  );

  app.get(
    '/members/:id',
    {
      schema: { params: DeskMemberParamsSchema, response: { 200: DeskMemberSchema, ...errors } },
      config: { access: 'see-members' },
    },
    async (request) => readMember(app, request.params.id, { stripeMode: options.stripeMode }),
  );

  const action = {
    params: DeskMemberParamsSchema,
    response: { 200: DeskActionResultSchema, ...errors },
  };

  app.post(
    '/members/:id/reread',
    { schema: action, config: { access: 'change' } },
    async (request) => ({
      message: await rereadFromStripe(
        { ...app.requirePayments(), db: app.db, log: request.log, graceDays: options.graceDays },
        deskStaff(request),
        request.params.id,
      ),
    }),
  );

  app.post(
    '/members/:id/comps',
    { schema: { ...action, body: DeskCompBodySchema }, config: { access: 'change' } },
    async (request) => ({
      message: await grantCompAsStaff(app, deskStaff(request), {
        userId: request.params.id,
        ...request.body,
        currency: options.currency,
        graceDays: options.graceDays,
      }),
    }),
  );

  app.post(
    '/members/:id/comps/:compId/end',
    { schema: { ...action, params: DeskCompParamsSchema }, config: { access: 'change' } },
    async (request) => ({
      message: await endCompAsStaff(app, deskStaff(request), {
        userId: request.params.id,
        compId: request.params.compId,
        graceDays: options.graceDays,
      }),
    }),
  );

  app.post(
    '/members/:id/sessions/end',
    { schema: action, config: { access: 'change' } },
    async (request) => ({
      message: await endSessionsAsStaff(app, deskStaff(request), request.params.id),
    }),
  );

  app.post(
    '/members/:id/password-reset',
    { schema: action, config: { access: 'change' } },
    async (request) => ({
      message: await sendPasswordResetAsStaff(
        {
          db: app.db,
          log: request.log,
          mailer: app.mailer,
          siteUrl: options.siteUrl,
          siteName: options.siteName,
        },
        deskStaff(request),
        request.params.id,
      ),
    }),
  );
};

export default deskMemberRoutes;
