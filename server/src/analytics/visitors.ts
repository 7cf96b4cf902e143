import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';

/** A visitor hash's length in bytes (of SHA-256's 32): enough to tell a day's visitors apart. */
const VISITOR_BYTES = 16;

/** A UTC day as PostgreSQL's `date` reads it: `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export interface VisitorHasher {
  /**
   * Who a request is, for today only: SHA-256 of the day's salt, the IP address, the user agent
   * and the site, cut to 16 bytes. Neither the address nor the agent is kept anywhere.
   */
  visitorOf(ip: string, userAgent: string, at: Date): Promise<Buffer>;
}

/**
 * Visitors' hashes with the day's salt (docs/analytics.md#what-is-counted): a random secret made
 * by the first server to need it and stored in `analytics_salts` for its day, so every server, and one
 * restarted, hashes a reader the same way all day; the rollup deletes it once the day is over, and
 * with it any way to tell that two days' hashes are the same reader.
 */
export function createVisitorHasher(pool: pg.Pool, site: string): VisitorHasher {
  let held: { day: string; salt: Buffer } | null = null;
  let pending: { day: string; salt: Promise<Buffer> } | null = null;

  async function saltOf(day: string): Promise<Buffer> {
    await pool.query(
      `INSERT INTO "analytics_salts" ("day", "salt") VALUES ($1, $2)
       ON CONFLICT ("day") DO NOTHING`,
      [day, randomBytes(32)],
    );
    const { rows } = await pool.query<{ salt: Buffer }>(
      `SELECT "salt" FROM "analytics_salts" WHERE "day" = $1`,
      [day],
    );
    const salt = rows[0]?.salt;
    if (!salt) throw new Error(`The analytics salt of ${day} is gone`);
    held = { day, salt };
    return salt;
  }

  return {
    async visitorOf(ip, userAgent, at) {
      const day = utcDay(at);
      let salt: Buffer;
      if (held?.day === day) salt = held.salt;
      else {
        if (pending?.day !== day) pending = { day, salt: saltOf(day) };
        const asked = pending;
        salt = await asked.salt.catch((error: unknown) => {
          if (pending === asked) pending = null;
          throw error;
        });
      }
      return createHash('sha256')
        .update(salt)
        .update('\0')
        .update(ip)
        .update('\0')
        .update(userAgent)
        .update('\0')
        .update(site)
        .digest()
        .subarray(0, VISITOR_BYTES);
    },
  };
}
