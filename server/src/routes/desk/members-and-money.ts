import type { FastifyInstance } from 'fastify';
import { requireChangeAllowed, requireMaySeeMembers } from '../../desk/staff.js';

/**
 * The gate of a desk plugin about members and money (plans, offers, gifts, seats): staff only (to
 * anyone else, what an unknown address answers), never writers, and a change (any method but GET)
 * only by an owner signed in within 12 hours. Its answers are never cached or indexed.
 */
export function membersAndMoneyOnly(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const staff = await request.requireStaff();
    requireMaySeeMembers(staff);
    if (request.method !== 'GET' && request.method !== 'HEAD') requireChangeAllowed(staff);
  });
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
  });
}
