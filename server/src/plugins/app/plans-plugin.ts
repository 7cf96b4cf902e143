import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  ensurePlans,
  readPlans,
  type PlanDefaults,
  type PlanRow,
} from '../../memberships/plan-catalog.js';

declare module 'fastify' {
  interface FastifyInstance {
    plans: {
      /**
       * The plans as stored: what was read last, read again in the background once it is a second
       * old (so every app server sees a change within about a second, and `/api/config` still
       * answers while the database is away); only the first read, or one after `changed`, waits.
       */
      list(): Promise<PlanRow[]>;
      /** A change was made here: the next `list` reads it. */
      changed(): void;
    };
  }
}

const FRESH_MS = 1_000;

/** The plans on sale (memberships/plan-catalog.ts): made at the first start, read for each sale. */
export default fp(
  async function plans(app: FastifyInstance, options: { defaults: PlanDefaults }) {
    let last: { at: number; rows: PlanRow[] } | null = null;
    let reading: Promise<PlanRow[]> | null = null;
    // A read begun before a change made here must not put what it read over the change.
    let generation = 0;

    function read(): Promise<PlanRow[]> {
      if (reading) return reading;
      const started = generation;
      const next = readPlans(app.db.pool)
        .then((rows) => {
          if (started === generation) last = { at: Date.now(), rows };
          return rows;
        })
        .finally(() => {
          if (reading === next) reading = null;
        });
      reading = next;
      return next;
    }

    app.decorate('plans', {
      list() {
        if (!last) return read();
        if (Date.now() - last.at > FRESH_MS) {
          read().catch((error: unknown) =>
            app.log.warn({ err: error }, 'could not read the plans again: using the last read'),
          );
        }
        return Promise.resolve(last.rows);
      },
      changed() {
        generation += 1;
        last = null;
        reading = null;
      },
    });
    app.addHook('onReady', async () => {
      await ensurePlans(app.db.pool, options.defaults);
      await read();
    });
  },
  { name: 'plans', dependencies: ['database'] },
);
