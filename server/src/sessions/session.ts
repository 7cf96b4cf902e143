import type { SessionUserRow } from '../users/users.js';
import type { SessionClaims } from './session-token.js';

/** A request's verified session: what the sessions plugin reads and the accounts module takes. */
export interface Session {
  userId: string;
  /** The user's row, or null for an anonymous reader who has none yet. */
  user: SessionUserRow | null;
  /** A registered user's session (its `sessions` row); null for an anonymous reader. */
  sessionId: string | null;
  claims: SessionClaims;
  /** The cookie must be re-issued on this response (an older key, or a session id added). */
  reissue: boolean;
}
