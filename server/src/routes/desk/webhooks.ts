import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { readBySchema } from '../../../../contract/schema-problems.js';
import { NewWebhookBodySchema } from '../../../../contract/webhooks.js';
import { HttpError } from '../../http/errors.js';
import type { KeySecrets } from '../../integrations/integrations.js';
import { addWebhook, listWebhooks, removeWebhook } from '../../webhooks/webhook-store.js';
import { deskStaff } from './desk-staff.js';

/**
 * Integrations' webhooks out (docs/ghost-api.md#webhooks), for owners as integrations are (403 to
 * editors and writers; a change needs a sign-in within 12 hours): `GET /api/desk/webhooks` lists
 * every integration's (`GET /api/desk/integrations/:id/webhooks` one's), `POST /api/desk/integrations/:id/webhooks {event, targetUrl, secret?}`
 * adds one (201 `{webhook}`), `DELETE …/webhooks/:webhookId` removes it (204).
 */
const deskWebhookRoutes: FastifyPluginAsyncTypebox<{
  allowPrivate: boolean;
  secrets: KeySecrets;
}> = async (app, { allowPrivate, secrets }) => {
  app.get('/webhooks', { config: { access: 'owner' } }, async () => ({
    webhooks: await listWebhooks(app.db.pool),
  }));

  app.get(
    '/integrations/:id/webhooks',
    {
      schema: { params: Type.Object({ id: Type.String({ format: 'uuid' }) }) },
      config: { access: 'owner' },
    },
    async (request) => ({ webhooks: await listWebhooks(app.db.pool, request.params.id) }),
  );

  app.post(
    '/integrations/:id/webhooks',
    {
      schema: { params: Type.Object({ id: Type.String({ format: 'uuid' }) }) },
      config: { access: 'owner-change' },
    },
    async (request, reply) => {
      // The body is read by its schema here, so each wrong field is named in its own words.
      const body = readBySchema(NewWebhookBodySchema, request.body ?? {});
      if (!body.ok) {
        const problems = body.problems.map((problem) => `${problem.field} ${problem.message}`);
        throw new HttpError(400, 'invalid_webhook', `Invalid webhook: ${problems.join('; ')}.`);
      }
      const webhook = await addWebhook(
        app.db.pool,
        deskStaff(request),
        request.params.id,
        body.value,
        allowPrivate,
        secrets,
      );
      return reply.code(201).send({ webhook });
    },
  );

  app.delete(
    '/integrations/:id/webhooks/:webhookId',
    {
      schema: {
        params: Type.Object({
          id: Type.String({ format: 'uuid' }),
          webhookId: Type.String({ format: 'uuid' }),
        }),
      },
      config: { access: 'owner-change' },
    },
    async (request, reply) => {
      await removeWebhook(
        app.db.pool,
        deskStaff(request),
        request.params.id,
        request.params.webhookId,
      );
      return reply.code(204).send();
    },
  );
};

export default deskWebhookRoutes;
