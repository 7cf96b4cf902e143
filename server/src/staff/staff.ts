import type { StaffConfig } from '../config.js';
import { DomainError } from '../domain-error.js';

/**
 * Who may use the publisher's desk, and what each may do (docs/decisions/0025-staff-roles.md).
 * Staff are registered accounts signed in with a stored session, named by email in `STAFF_EMAILS`
 * (owners: see and change everything), `EDITOR_EMAILS` (editors: write, edit and publish posts; see
 * members and money, change nothing of them) or `WRITER_EMAILS` (writers: write drafts and submit
 * them; never publish, never see members). To anyone else the desk does not exist: every desk
 * address answers exactly what an unknown address answers, a 404.
 */

export type StaffRole = 'owner' | 'editor' | 'writer';

export interface Staff {
  userId: string;
  email: string;
  role: StaffRole;
  sessionId: string;
  /** When this session's password was typed; null when nobody knows (an older session). */
  signedInAt: Date | null;
}

/** A change needs a session signed in this recently: a stolen old cookie cannot change anything. */
export const DESK_SIGN_IN_MAX_AGE_MS = 12 * 60 * 60 * 1000;

export function staffRoleOf(config: StaffConfig, email: string | null): StaffRole | null {
  if (!email) return null;
  if (config.owners.includes(email)) return 'owner';
  if (config.editors.includes(email)) return 'editor';
  if (config.writers.includes(email)) return 'writer';
  return null;
}

/** Until when the staff member may change things without signing in again; null: not now. */
export function changesAllowedUntil(staff: Staff): Date | null {
  if (staff.role !== 'owner' || !staff.signedInAt) return null;
  return new Date(staff.signedInAt.getTime() + DESK_SIGN_IN_MAX_AGE_MS);
}

/** The answer for a desk address to someone who is not staff: that of an unknown address. */
export function deskNotFound(method: string, url: string): DomainError {
  const path = url.split('?')[0] ?? '/';
  return new DomainError(404, 'not_found', `No such resource: ${method} ${path}`);
}

/**
 * Lets a staff member make a change, or says why not: an editor never (403), an owner only within
 * 12 hours of signing in (403, sign in again).
 */
export function requireChangeAllowed(staff: Staff, now = new Date()): void {
  requireChangingRole(staff);
  const until = changesAllowedUntil(staff);
  if (!until || until.getTime() <= now.getTime()) {
    throw new DomainError(
      403,
      'sign_in_again',
      'Changes need a sign-in within the last 12 hours: sign out, sign in again, and retry.',
    );
  }
}

/**
 * The role's part of requireChangeAllowed: owners change members and money, editors only look,
 * writers do not see them (403). The Admin API's staff tokens are held to it (a token is made
 * within 12 hours of a sign-in, and is proof enough: docs/ghost-api.md#admin-api).
 */
export function requireChangingRole(staff: Pick<Staff, 'role'>): void {
  requireMaySeeMembers(staff);
  if (staff.role !== 'owner') {
    throw new DomainError(
      403,
      'read_only_staff',
      'Editors can look but not change: ask an owner (STAFF_EMAILS) to do this.',
    );
  }
}

/**
 * What only owners see or do (403 to editors and writers): integrations and their webhooks,
 * imports and exports, the mailbox, deleting a post.
 */
export function requireOwner(staff: Pick<Staff, 'role'>): void {
  if (staff.role !== 'owner') {
    throw new DomainError(
      403,
      'owners_only',
      'This is for owners (STAFF_EMAILS) only: ask an owner to do it.',
    );
  }
}

/** Writers see only posts: members, money and the audit log are for owners and editors. */
export function requireMaySeeMembers(staff: Pick<Staff, 'role'>): void {
  if (staff.role === 'writer') {
    throw new DomainError(
      403,
      'writers_see_posts_only',
      'Writers work on posts only: members and payments are for editors and owners.',
    );
  }
}
