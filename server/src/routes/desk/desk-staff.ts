import type { FastifyRequest } from 'fastify';
import type { Staff } from '../../staff/staff.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The staff member the desk's gate let in (plugins/app/route-access.ts), set by its hook before
     * any handler of the desk runs; the request has no such field outside the desk's scope. Read
     * it through `deskStaff(request)`.
     */
    staff: Staff | null;
  }
}

/**
 * The staff member behind a desk request. The gate's hook has put them there, or answered the
 * request with the desk's 404 before any handler ran, so inside the desk this cannot fail; what
 * throws here is a handler registered outside the desk's scope, a mistake in the code.
 */
export function deskStaff(request: FastifyRequest): Staff {
  if (!request.staff) throw new Error('deskStaff(request) read outside the desk’s gate');
  return request.staff;
}
