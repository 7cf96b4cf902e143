import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import {
  CreatedIntegrationSchema,
  IntegrationCreateSchema,
  IntegrationListSchema,
} from '../../../../contract/integrations-api.js';
import {
  createIntegration,
  deleteIntegration,
  listIntegrations,
} from '../../integrations/integrations.js';
import { deskStaff } from './desk-staff.js';

export interface DeskIntegrationOptions {
  siteUrl: string;
  /** SESSION_SECRET, then SESSION_SECRET_PREVIOUS if set: admin secrets are sealed under them. */
  secrets: readonly string[];
}

const Id = Type.Object({ id: Type.String({ format: 'uuid' }) });
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };

/**
 * `/api/desk/integrations` (docs/ghost-api.md): owners make, list and delete integrations, the
 * keys tools made for Ghost use. Their keys open the site's content and let a tool write posts,
 * so they are for owners (403 to editors and writers, as imports are), and a change needs an owner
 * signed in within 12 hours. The keys are in the creation's answer only.
 */
const deskIntegrationRoutes: FastifyPluginAsyncTypebox<DeskIntegrationOptions> = async (
  app,
  options,
) => {
  app.get(
    '/integrations',
    { schema: { response: { 200: IntegrationListSchema } }, config: { access: 'owner' } },
    async () => ({
      integrations: await listIntegrations(app.db.pool),
      apiUrl: options.siteUrl,
    }),
  );

  app.post(
    '/integrations',
    {
      schema: {
        body: IntegrationCreateSchema,
        response: { 201: Type.Object({ integration: CreatedIntegrationSchema }), ...errors },
      },
      config: { access: 'owner-change' },
    },
    async (request, reply) => {
      const integration = await createIntegration(
        app.db.pool,
        options.secrets,
        deskStaff(request),
        request.body,
      );
      return reply.code(201).send({ integration });
    },
  );

  // Answered once this server has forgotten the keys (a content change): they stop with the next
  // request.
  app.delete(
    '/integrations/:id',
    { schema: { params: Id }, config: { access: 'owner-change', changesContent: true } },
    async (request, reply) => {
      await deleteIntegration(app.db.pool, deskStaff(request), request.params.id);
      return reply.code(204).send();
    },
  );
};

export default deskIntegrationRoutes;
