import type { FastifyInstance } from 'fastify';
import type pg from 'pg';

export interface ChangeListening {
  /** The channel the changes are announced on (NOTIFY). */
  channel: string;
  /** What the changes are, for the log: "could not LISTEN for <what>". */
  what: string;
  /** A notice's payload, as its sender wrote it. */
  onNotice(payload: string): void;
  /**
   * Looks for what changed unannounced: once listening (what changed while nobody listened), and
   * every `pollMs` where LISTEN is not possible. Reports its own failures.
   */
  check(): Promise<void>;
  pollMs: number;
}

/**
 * LISTENs on a connection of its own for the changes other app servers announce, connecting again
 * a second after the connection is cut; where LISTEN is not possible (the embedded database,
 * PgBouncer's transaction pooling) or fails, asks every `pollMs` instead
 * (docs/decisions/0021-content-generation.md). `listen()` starts it (once the app is ready),
 * `stop()` ends it (as the app closes).
 */
export function listenForChanges(app: FastifyInstance, listening: ChangeListening) {
  let listener: pg.Client | null = null;
  let poll: NodeJS.Timeout | undefined;
  let closed = false;

  async function listen() {
    const client = app.db.connectListener();
    if (!client) {
      startPolling();
      return;
    }
    listener = client;
    client.on('notification', (notice) => listening.onNotice(notice.payload ?? ''));
    client.on('error', () => {});
    client.on('end', () => {
      if (closed) return;
      listener = null;
      setTimeout(() => void listen(), 1_000).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${listening.channel}`);
    } catch (error) {
      app.log.warn({ err: error }, `could not LISTEN for ${listening.what}: asking every second`);
      await client.end().catch(() => {});
      listener = null;
      startPolling();
      return;
    }
    await listening.check();
  }

  function startPolling() {
    poll = setInterval(() => void listening.check(), listening.pollMs);
    poll.unref();
  }

  return {
    listen,
    async stop() {
      closed = true;
      clearInterval(poll);
      await listener?.end().catch(() => {});
    },
  };
}
