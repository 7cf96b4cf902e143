import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { readBySchema } from '../../../../contract/schema-problems.js';
import { RedirectsPutSchema, RedirectsSchema } from '../../../../contract/redirects-api.js';
import { HttpError } from '../../http/errors.js';
import { readRedirects, saveRedirects } from '../../redirects/redirect-store.js';
import { deskStaff } from './desk-staff.js';

/**
 * The publisher's redirects (redirects/), for owners: `GET /api/desk/redirects` answers the file as
 * it was given and its rules in order; `PUT` replaces them with a `redirects.json` or
 * `redirects.yaml` in Ghost's shapes (a sign-in within 12 hours), checked whole first (a refused
 * file is a 400 naming each problem, and changes nothing), audited, and answered once this server
 * follows them.
 */
const deskRedirectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/redirects',
    { schema: { response: { 200: RedirectsSchema } }, config: { access: 'owner' } },
    async () => readRedirects(app.db.pool),
  );

  app.put(
    '/redirects',
    {
      schema: {
        response: { 200: RedirectsSchema, 400: ErrorResponseSchema, 403: ErrorResponseSchema },
      },
      config: { access: 'owner-change', changesContent: true, limit: 'desk-redirects' },
    },
    async (request) => {
      const body = readBySchema(RedirectsPutSchema, request.body ?? {}, { defaults: false });
      if (!body.ok) {
        const problems = body.problems.map((problem) => `${problem.field} ${problem.message}`);
        throw new HttpError(400, 'invalid_redirects', `Invalid redirects: ${problems.join('; ')}.`);
      }
      const saved = await saveRedirects(app.db.pool, deskStaff(request), body.value);
      // This server follows them before it answers; the others within a second.
      await app.customRedirects.reload();
      return saved;
    },
  );
};

export default deskRedirectRoutes;
