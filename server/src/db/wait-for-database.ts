import pg from 'pg';
import { parseDatabaseUrl } from './database-url.js';

/** Errors that mean "not there yet" (down, starting, unreachable): worth another try. */
const RETRYABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P03', // the database system is starting up
  '57P01', // terminating connection due to administrator command
  '08006', // connection failure
]);
const RETRYABLE_MESSAGES = /^(Connection terminated|timeout expired)/i;

export class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError';
}

export interface WaitOptions {
  /** One line per failed attempt. */
  log(message: string): void;
  /** Give up after this long (60 s unless told). */
  deadlineMs?: number;
  /** The first pause; each next one doubles, up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/** `host:port/database` of a connection string: what a message may say (never the password). */
export function describeDatabase(url: string): string {
  const parsed = new URL(parseDatabaseUrl(url).connectionString);
  return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
}

/** The error in a few words: its code and PostgreSQL's (or the socket's) message. */
function summarize(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message.split('\n')[0] : String(error);
  return typeof code === 'string' && !text?.includes(code) ? `${code}: ${text}` : (text ?? '');
}

/**
 * Waits until the database answers a query, trying again with a growing pause (0.5 s, 1 s, 2 s…
 * up to 5 s) while it is down, starting or unreachable, one log line per try. An answer that will
 * not change by waiting (a wrong password, no such database, a pooler refusing the connection's
 * parameters) fails at once. Throws a `DatabaseUnreachableError` whose message is one line.
 */
export async function waitForDatabase(url: string, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + (options.deadlineMs ?? 60_000);
  let delay = options.firstDelayMs ?? 500;
  const where = describeDatabase(url);
  for (;;) {
    const client = new pg.Client({
      connectionString: parseDatabaseUrl(url).connectionString,
      connectionTimeoutMillis: 5_000,
    });
    // A connection lost mid-attempt is reported by the attempt itself.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      const { code, message } = error as { code?: unknown; message?: unknown };
      const retryable =
        (typeof code === 'string' && RETRYABLE_CODES.has(code)) ||
        (typeof message === 'string' && RETRYABLE_MESSAGES.test(message));
      const reason = summarize(error);
      if (!retryable) {
        const hint = /unsupported startup parameter/.test(reason)
          ? ' (a PgBouncer? add ?pgbouncer=true to DATABASE_URL)'
          : '';
        throw new DatabaseUnreachableError(`The database at ${where} refused: ${reason}${hint}`);
      }
      if (Date.now() + delay > deadline) {
        throw new DatabaseUnreachableError(
          `The database at ${where} did not answer for ${Math.round((options.deadlineMs ?? 60_000) / 1000)} s: ${reason}`,
        );
      }
      options.log(
        `The database at ${where} is not reachable (${reason}): trying again in ${delay / 1000} s`,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, options.maxDelayMs ?? 5_000);
    } finally {
      await client.end().catch(() => {});
    }
  }
}
