import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { FIRST_TIER_ID } from '../../memberships/derive-membership.js';
import { ensurePlans, type PlanDefaults, type PlanRow } from '../../memberships/plan-catalog.js';
import { readTierCatalog, type TierCatalog } from '../../memberships/tier-catalog.js';

declare module 'fastify' {
  interface FastifyInstance {
    plans: {
      /**
       * A tier's plans as stored (the first tier's, `supporter`, unless it says; none for a tier
       * there is not), from what `catalog` holds.
       */
      list(tierId?: number): Promise<PlanRow[]>;
      /**
       * The tiers and their plans as stored: what was read last, read again in the background once
       * it is a second old (so every app server sees a change within about a second, and
       * `/api/config` still answers while the database is away); only the first read, or one
       * after `changed`, waits.
       */
      catalog(): Promise<TierCatalog>;
      /** A change to the tiers or the plans was made here: the next read reads it. */
      changed(): void;
    };
  }
}

const FRESH_MS = 1_000;

/**
 * What the site sells (memberships/tier-catalog.ts and plan-catalog.ts): the tiers and each one's
 * plans, the first tier's plans made at the first start, read for each sale.
 */
export default fp(
  async function plans(app: FastifyInstance, options: { defaults: PlanDefaults }) {
    let last: { at: number; catalog: TierCatalog } | null = null;
    let reading: Promise<TierCatalog> | null = null;
    // A read begun before a change made here must not put what it read over the change.
    let generation = 0;

    function read(): Promise<TierCatalog> {
      if (reading) return reading;
      const started = generation;
      const next = readTierCatalog(app.db.pool)
        .then((catalog) => {
          if (started === generation) last = { at: Date.now(), catalog };
          return catalog;
        })
        .finally(() => {
          if (reading === next) reading = null;
        });
      reading = next;
      return next;
    }

    function catalog(): Promise<TierCatalog> {
      if (!last) return read();
      if (Date.now() - last.at > FRESH_MS) {
        read().catch((error: unknown) =>
          app.log.warn({ err: error }, 'could not read the plans again: using the last read'),
        );
      }
      return Promise.resolve(last.catalog);
    }

    app.decorate('plans', {
      catalog,
      async list(tierId = FIRST_TIER_ID) {
        return (await catalog()).plans.get(tierId) ?? [];
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
