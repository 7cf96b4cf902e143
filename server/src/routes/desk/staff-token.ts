import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DESK_SIGN_IN_MAX_AGE_MS } from '../../staff/staff.js';
import { readStaffToken, regenerateStaffToken } from '../../ghost-admin/staff-tokens.js';
import { HttpError } from '../../http/errors.js';
import { deskStaff } from './desk-staff.js';

/**
 * The staff member's own Admin API key, Ghost's "staff access token" (docs/ghost-api.md), for
 * every role: `GET /api/desk/profile/token` says whether there is one (its id and date, never the
 * secret); `POST` makes one, replacing the old, and answers it this once: `{token}`. Making one
 * needs a sign-in within 12 hours: a token is a password for writing apps.
 */
const deskStaffTokenRoutes: FastifyPluginAsyncTypebox<{ secrets: readonly string[] }> = async (
  app,
  { secrets },
) => {
  app.get('/profile/token', { config: { access: 'staff' } }, async (request) =>
    readStaffToken(app.db.pool, deskStaff(request).userId),
  );

  app.post('/profile/token', { config: { access: 'staff' } }, async (request, reply) => {
    const staff = deskStaff(request);
    const signedInAt = staff.signedInAt?.getTime() ?? 0;
    if (Date.now() - signedInAt > DESK_SIGN_IN_MAX_AGE_MS) {
      throw new HttpError(
        403,
        'sign_in_again',
        'A staff access token needs a sign-in within the last 12 hours: sign in again, and retry.',
      );
    }
    const token = await regenerateStaffToken(app.db.pool, secrets, staff);
    return reply.code(201).send({ token });
  });
};

export default deskStaffTokenRoutes;
