import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { StaffConfig } from '../../config.js';
import { deskNotFound, staffRoleOf, type Staff } from '../../staff/staff.js';
import { sessionSignedInAt } from '../../sessions/user-sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The staff member behind this request's session, or null for anyone else. Read once. */
    getStaff(): Promise<Staff | null>;
    /** The staff member, or the 404 an unknown address gets: the desk is not advertised. */
    requireStaff(): Promise<Staff>;
    /**
     * The session's account is listed as staff but its address is not proven yet: the desk page
     * asks it to verify the address instead of opening. Its API stays 404.
     */
    isStaffAwaitingProof(): Promise<boolean>;
  }
}

/** Staff (`STAFF_EMAILS`, `EDITOR_EMAILS`), recognised from the request's session. */
export default fp(
  async function staff(app: FastifyInstance, options: { staff: StaffConfig }) {
    const cache = new WeakMap<FastifyRequest, Promise<Staff | null>>();

    async function readStaff(request: FastifyRequest): Promise<Staff | null> {
      const session = await request.getSession();
      const email = session?.user?.email ?? null;
      const role = staffRoleOf(options.staff, email);
      // Only a proven address counts (docs/decisions/0014): whoever registered a listed address
      // first does not get the desk unless they read its mail.
      if (!session || !email || !role || !session.sessionId || !session.user?.emailVerified) {
        return null;
      }
      return {
        userId: session.userId,
        email,
        role,
        sessionId: session.sessionId,
        signedInAt: await sessionSignedInAt(app, session.sessionId),
      };
    }

    app.decorateRequest('getStaff', function getStaff(this: FastifyRequest) {
      let found = cache.get(this);
      if (!found) {
        found = readStaff(this);
        cache.set(this, found);
      }
      return found;
    });

    app.decorateRequest(
      'isStaffAwaitingProof',
      async function isStaffAwaitingProof(this: FastifyRequest) {
        const session = await this.getSession();
        const user = session?.user;
        return Boolean(
          session?.sessionId &&
          user?.email &&
          !user.emailVerified &&
          staffRoleOf(options.staff, user.email),
        );
      },
    );

    app.decorateRequest('requireStaff', async function requireStaff(this: FastifyRequest) {
      const staff = await this.getStaff();
      if (!staff) throw deskNotFound(this.method, this.url);
      return staff;
    });
  },
  { name: 'staff', dependencies: ['sessions'] },
);
