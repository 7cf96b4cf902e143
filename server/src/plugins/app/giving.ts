import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { deliverGiftMails, type GiftMailReport } from '../../gifts/gifts.js';
import { deliverSeatMails, grantAutomatically, type SeatDeps } from '../../seats/seats.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Memberships given: gifts and solidarity seats (docs/decisions/0024). */
    giving: {
      /** What their mail and grants need (the desk's resend and grants use it). */
      deps: SeatDeps;
      /** A sweep soon (after a payment, a claim or a grant), without waiting for it. */
      deliverSoon(): void;
      /** A sweep now, and the mail it sent (tests). */
      deliverNow(): Promise<GiftMailReport>;
    };
  }
}

/** How often every app server looks for what has come due (a send date, a month's grants). */
const SWEEP_EVERY_MS = 60_000;

/** One sweep: the month's automatic seat grants, then every mail gifts and seats owe. */
async function sweepOnce(deps: SeatDeps): Promise<GiftMailReport> {
  await grantAutomatically(deps);
  const gifts = await deliverGiftMails(deps);
  const seats = await deliverSeatMails(deps);
  return { sent: gifts.sent + seats.sent, failed: gifts.failed + seats.failed };
}

/**
 * Gifts' and seats' work on a timer: every server sweeps once a minute, and at once after a
 * payment, a claim or a grant. A sweep is idempotent and safe beside another server's (each row is
 * locked while its mail goes; the month's grants are counted under a lock), so a send date is met
 * within a minute, after a restart too: what is due is a row in PostgreSQL, not a timer in memory.
 */
export default fp(
  async function giving(app: FastifyInstance, options: { siteUrl: string; graceDays: number }) {
    const deps: SeatDeps = {
      pool: app.db.pool,
      mailer: app.mailer,
      siteUrl: options.siteUrl,
      // The publication's name at each mail, from its settings (the desk may rename it).
      get siteName() {
        return app.siteContent.current().settings.title;
      },
      log: app.log,
      graceDays: options.graceDays,
    };
    let running: Promise<GiftMailReport> | null = null;
    let again = false;
    let closed = false;

    const sweep = (): Promise<GiftMailReport> => {
      if (running) {
        again = true;
        return running;
      }
      running = sweepOnce(deps)
        .catch((error: unknown) => {
          app.log.error({ err: error }, 'the gifts and seats sweep failed');
          return { sent: 0, failed: 0 };
        })
        .finally(() => {
          running = null;
          if (again && !closed) {
            again = false;
            void sweep();
          }
        });
      return running;
    };

    const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
    timer.unref();

    app.decorate('giving', {
      deps,
      deliverSoon: () => {
        if (!closed) void sweep();
      },
      deliverNow: async () => {
        await running;
        return sweep();
      },
    });
    app.addHook('onReady', async () => {
      void sweep();
    });
    app.addHook('onClose', async () => {
      closed = true;
      clearInterval(timer);
      await running;
    });
  },
  { name: 'giving', dependencies: ['mailer'] },
);
