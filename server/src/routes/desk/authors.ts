import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { StaffConfig } from '../../config.js';
import {
  listStaffAuthors,
  readOwnProfile,
  updateOwnProfile,
} from '../../content/author-profiles.js';
import { deskStaff } from './desk-staff.js';

/**
 * Authors: every staff member's own profile (`GET` and `PATCH /profile`: name, slug,
 * bio, picture, links), and the staff an editor may name as a post's authors (`GET /authors`).
 */
const deskAuthorRoutes: FastifyPluginAsyncTypebox<{ staff: StaffConfig }> = async (
  app,
  options,
) => {
  app.get('/profile', { config: { access: 'staff' } }, async (request) => ({
    profile: await readOwnProfile(app.db.pool, deskStaff(request)),
  }));

  app.patch(
    '/profile',
    {
      schema: { body: Type.Record(Type.String(), Type.Unknown()) },
      // Bylines and the author's page show the change before the answer.
      config: { access: 'staff', changesContent: true },
    },
    async (request) => {
      const { profile } = await updateOwnProfile(app.db.pool, deskStaff(request), request.body);
      return { profile };
    },
  );

  app.get('/authors', { config: { access: 'staff' } }, async () => ({
    authors: await listStaffAuthors(app.db.pool, options.staff),
  }));
};

export default deskAuthorRoutes;
