import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import type { Database } from './db/database.js';
import type { MembershipPrice } from './stripe/cohort-sales.js';

/**
 * The one shape every service takes as its first argument: the parts of this it needs
 * (`Pick<Services, 'db'>`, `Pick<Services, 'stripe' | 'membershipPrice'>`...). Routes build it from the app
 * (`app.db`, `app.requirePayments()`, `request.log`); tests pass their own. SQL helpers that must
 * run inside a caller's transaction take that transaction (`tx`) instead.
 */
export interface Services {
  db: Database;
  /** The real Stripe SDK (pointed at a fake in tests). */
  stripe: Stripe;
  /** The membership's price, currency and the operator's Stripe Price. */
  membershipPrice: MembershipPrice;
  log: FastifyBaseLogger;
}
