import type { FastifyRequest } from 'fastify';
import { VISITOR, type Reader } from '../../../contract/reading.js';
import type { SessionUserRow } from '../users/users.js';
import { isMembershipActive } from '../memberships/memberships.js';

/**
 * Who a signed-in user is as a reader (contract/reading.ts): signed in once their address is
 * proven, and of the tier their membership gives access to while it does.
 */
export function readerOfUser(user: Pick<SessionUserRow, 'emailVerified' | 'membership'> | null) {
  if (!user) return VISITOR;
  const paying = isMembershipActive(user.membership);
  return {
    signedIn: user.emailVerified,
    tier: paying ? (user.membership?.tier ?? null) : null,
  } satisfies Reader;
}

/** The reader behind a request (its session's user; a visitor without one). */
export async function readerOf(request: FastifyRequest): Promise<Reader> {
  const session = await request.getSession();
  return readerOfUser(session?.user ?? null);
}
