import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  ensurePlans,
  readPlans,
  type PlanDefaults,
  type PlanRow,
} from '../../memberships/plans.js';

declare module 'fastify' {
  interface FastifyInstance {
    plans: {
      /** The plans as stored, read at most once a second (every app server sees a change soon). */
      list(): Promise<PlanRow[]>;
      /** Forget what was read: a change was made here. */
      changed(): void;
    };
  }
}

const FRESH_MS = 1_000;

/** The plans on sale (memberships/plans.ts): made at the first start, read for each sale. */
export default fp(
  async function plans(app: FastifyInstance, options: { defaults: PlanDefaults }) {
    let cached: { at: number; rows: Promise<PlanRow[]> } | null = null;
    app.decorate('plans', {
      list() {
        if (!cached || Date.now() - cached.at > FRESH_MS) {
          const rows = readPlans(app.db.pool);
          cached = { at: Date.now(), rows };
          rows.catch(() => {
            cached = null;
          });
        }
        return cached.rows;
      },
      changed() {
        cached = null;
      },
    });
    app.addHook('onReady', async () => {
      await ensurePlans(app.db.pool, options.defaults);
    });
  },
  { name: 'plans', dependencies: ['database'] },
);
