import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import {
  CreatedIntegrationSchema,
  IntegrationCreateSchema,
  IntegrationListSchema,
} from '../../../../contract/integrations-api.js';
import { requireChangeAllowed } from '../../desk/staff.js';
import { HttpError } from '../../http/errors.js';
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
 * so the whole scope is for owners (403 to editors and writers, as imports are), and a change
 * needs an owner signed in within 12 hours. The keys are in the creation's answer only.
 */
const deskIntegrationRoutes: FastifyPluginAsyncTypebox<DeskIntegrationOptions> = async (
  app,
  options,
) => {
  app.addHook('onRequest', async (request) => {
    const staff = deskStaff(request);
    if (staff.role !== 'owner') {
      throw new HttpError(
        403,
        'owners_only',
        'Integrations are for owners (STAFF_EMAILS): their keys open the site to other tools.',
      );
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') requireChangeAllowed(staff);
  });

  app.get('/integrations', { schema: { response: { 200: IntegrationListSchema } } }, async () => ({
    integrations: await listIntegrations(app.db.pool),
    apiUrl: options.siteUrl,
  }));

  app.post(
    '/integrations',
    {
      schema: {
        body: IntegrationCreateSchema,
        response: { 201: Type.Object({ integration: CreatedIntegrationSchema }), ...errors },
      },
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

  app.delete('/integrations/:id', { schema: { params: Id } }, async (request, reply) => {
    // Answered once this server has forgotten the keys: they stop with the next request.
    await app.siteContent.waitFor(
      await deleteIntegration(app.db.pool, deskStaff(request), request.params.id),
    );
    return reply.code(204).send();
  });
};

export default deskIntegrationRoutes;
