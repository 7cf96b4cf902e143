import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponseSchema } from '../../../../contract/api.js';
import { readBySchema } from '../../../../contract/schema-problems.js';
import {
  SiteSettingsPatchSchema,
  SiteSettingsSchema,
} from '../../../../contract/site-settings-api.js';
import { changeSiteSettings, readSiteSettings } from '../../content/site-settings.js';
import { HttpError } from '../../http/errors.js';
import { deskStaff } from './desk-staff.js';

const Answer = Type.Object({ settings: SiteSettingsSchema });

/**
 * The publication's settings (contract/site-settings.ts), for owners: `GET /api/desk/settings`
 * answers them all, `PATCH` changes those it names (a sign-in within 12 hours), audited, and
 * answers once this server draws the change (`changesContent`).
 */
const deskSettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/settings',
    { schema: { response: { 200: Answer } }, config: { access: 'owner' } },
    async () => ({ settings: await readSiteSettings(app.db.pool) }),
  );

  app.patch(
    '/settings',
    {
      schema: { response: { 200: Answer, 400: ErrorResponseSchema, 403: ErrorResponseSchema } },
      config: { access: 'owner-change', changesContent: true },
    },
    async (request) => {
      // The body is read by its schema here, so each wrong field is named in its own words.
      const body = readBySchema(SiteSettingsPatchSchema, request.body ?? {}, { defaults: false });
      if (!body.ok) {
        const problems = body.problems.map((problem) => `${problem.field} ${problem.message}`);
        throw new HttpError(400, 'invalid_settings', `Invalid settings: ${problems.join('; ')}.`);
      }
      const { settings } = await changeSiteSettings(app.db.pool, deskStaff(request), body.value);
      return { settings };
    },
  );
};

export default deskSettingsRoutes;
