import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import {
  SamplesRemainingSchema,
  SamplesRemovedSchema,
} from '../../../../contract/sample-content.js';
import { countSamples, removeSamples } from '../../content/sample-content.js';
import { deskStaff } from './desk-staff.js';

export interface DeskSampleOptions {
  /** The ids of the shipped perks that say `sample: true` (content/perks). */
  samplePerks: readonly string[];
}

/**
 * The sample content, for owners: `GET /api/desk/samples` says what of it is still on the site
 * (the desk offers to remove it while anything is), `POST /api/desk/samples/remove` takes it out
 * (a sign-in within 12 hours), audited, and answers once this server draws the site without it.
 */
const deskSampleRoutes: FastifyPluginAsyncTypebox<DeskSampleOptions> = async (
  app,
  { samplePerks },
) => {
  app.get(
    '/samples',
    { schema: { response: { 200: SamplesRemainingSchema } }, config: { access: 'owner' } },
    async () => ({ remaining: await countSamples(app.db.pool, samplePerks) }),
  );

  app.post(
    '/samples/remove',
    {
      schema: { response: { 200: SamplesRemovedSchema, 403: ErrorResponseSchema } },
      config: { access: 'owner-change', changesContent: true },
    },
    async (request) => {
      const { removed } = await removeSamples(app.db.pool, deskStaff(request), samplePerks);
      return { removed };
    },
  );
};

export default deskSampleRoutes;
