import type { RouteOptions } from 'fastify';
import { requireMayPublish } from '../../content/post-actors.js';
import {
  requireChangeAllowed,
  requireMaySeeMembers,
  requireOwner,
  type Staff,
} from '../../staff/staff.js';

/**
 * Who may call a desk route, by name, each with its rule (staff/staff.ts, decision 25). Every
 * route of the desk names one (`config: { access: 'see-members' }`); the desk's gate (index.ts)
 * holds every request to it, after the 404 that anyone but staff gets and before anything else of
 * the request is read. No handler checks a role again.
 */
export const DESK_ACCESS = {
  /** Every staff member: owners, editors and writers. */
  staff: () => {},
  /** Owners and editors, who publish (a writer: 403 `writers_cannot_publish`). */
  publisher: requireMayPublish,
  /** Owners and editors: members, money, comments (a writer: 403 `writers_see_posts_only`). */
  'see-members': requireMaySeeMembers,
  /**
   * An owner signed in within 12 hours: a change to members, money, subscribers' inboxes or the
   * site's sections (an editor: 403 `read_only_staff`; a writer: `writers_see_posts_only`; an
   * older sign-in: `sign_in_again`).
   */
  change: (staff) => requireChangeAllowed(staff),
  /** Owners: integrations and webhooks, imports and exports, the mailbox (403 `owners_only`). */
  owner: requireOwner,
  /**
   * An owner signed in within 12 hours, changing what only owners see: a post's deletion,
   * integrations, webhooks, an import (403 `owners_only`, then `sign_in_again`).
   */
  'owner-change': (staff) => {
    requireOwner(staff);
    requireChangeAllowed(staff);
  },
} satisfies Record<string, (staff: Staff) => void>;

export type DeskAccess = keyof typeof DESK_ACCESS;

const isDeskAccess = (name: unknown): name is DeskAccess =>
  typeof name === 'string' && Object.hasOwn(DESK_ACCESS, name);

/**
 * The desk's `onRoute` check: a route that does not say who may call it, or names no access of
 * DESK_ACCESS, stops the app from starting (it fails closed, never open). Whether a desk route
 * changes state is the desk's rule unless the route says otherwise: a GET reads, anything else
 * writes (config.changesState, plugins/app/route-access.ts).
 */
export function requireAccessDeclared(route: RouteOptions): void {
  if (!isDeskAccess(route.config?.access)) {
    throw new Error(
      `${String(route.method)} ${route.url}: a desk route says who may call it, config.access: ${Object.keys(DESK_ACCESS).join(' | ')}`,
    );
  }
  if (route.config.changesState === undefined) {
    const reads = [route.method].flat().every((method) => method === 'GET' || method === 'HEAD');
    route.config = { ...route.config, changesState: !reads };
  }
}

/** Lets `staff` call a route declaring `access`, or throws the 403 that says why not. */
export function requireDeskAccess(staff: Staff, access: DeskAccess | undefined): void {
  // Every route declares one (requireAccessDeclared): none is a mistake, refused all the same.
  if (!isDeskAccess(access)) throw new Error('A desk route without config.access was called');
  DESK_ACCESS[access](staff);
}
