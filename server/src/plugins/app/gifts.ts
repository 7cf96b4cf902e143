import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { deliverGiftMails, type GiftMailDeps, type GiftMailReport } from '../../gifts/gifts.js';

declare module 'fastify' {
  interface FastifyInstance {
    gifts: {
      /** The mail deliveries' dependencies (the desk's resend uses them). */
      mail: GiftMailDeps;
      /** A sweep soon (after a payment or a claim), without waiting for it. */
      deliverSoon(): void;
      /** A sweep now, and what it sent (tests, and the command line). */
      deliverNow(): Promise<GiftMailReport>;
    };
  }
}

/** How often every app server looks for gift mail that has come due (a send date reached). */
const SWEEP_EVERY_MS = 60_000;

/**
 * Gift mail on a timer: every server sweeps once a minute, and at once after a gift's payment or
 * claim. A sweep is idempotent and safe beside another server's (each gift's row is locked while
 * its mail goes), so a send date is met within a minute, after a restart too: what is due is
 * a row in PostgreSQL, not a timer in memory.
 */
export default fp(
  async function gifts(app: FastifyInstance, options: { siteUrl: string; siteName: string }) {
    const mail: GiftMailDeps = {
      pool: app.db.pool,
      mailer: app.mailer,
      siteUrl: options.siteUrl,
      siteName: options.siteName,
      log: app.log,
    };
    let running: Promise<GiftMailReport> | null = null;
    let again = false;
    let closed = false;

    const sweep = (): Promise<GiftMailReport> => {
      if (running) {
        again = true;
        return running;
      }
      running = deliverGiftMails(mail)
        .catch((error: unknown) => {
          app.log.error({ err: error }, 'gift mail sweep failed');
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

    app.decorate('gifts', {
      mail,
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
  { name: 'gifts', dependencies: ['mailer'] },
);
