import type pg from 'pg';
import type { Card, CardReading } from '../../../contract/embeds.js';

/**
 * `embed_cards`: what was read of each card's address, once per address (decision 29). A reading
 * is kept until the desk reads the address again; the posts' trees are made with all of them
 * (content/published-content.ts).
 */

interface CardRow {
  url: string;
  state: string;
  card: unknown;
  reason: string | null;
}

/** A row as the reading it keeps; null for one this code did not write (never expected). */
function readingOf(row: CardRow): CardReading | null {
  if (row.state === 'unreachable' && row.reason !== null) {
    return { url: row.url, state: 'unreachable', reason: row.reason };
  }
  const card = row.card as Card | null;
  if (row.state === 'read' && (card?.kind === 'embed' || card?.kind === 'bookmark')) {
    return { url: row.url, state: 'read', card };
  }
  return null;
}

/** The readings of these addresses (all of them when none are named), by address. */
export async function readCardReadings(
  pool: Pick<pg.Pool, 'query'>,
  urls?: readonly string[],
): Promise<Map<string, CardReading>> {
  if (urls?.length === 0) return new Map();
  const { rows } = await pool.query<CardRow>(
    urls
      ? `SELECT "url", "state", "card", "reason" FROM "embed_cards" WHERE "url" = ANY($1::text[])`
      : `SELECT "url", "state", "card", "reason" FROM "embed_cards"`,
    urls ? [urls] : [],
  );
  const readings = new Map<string, CardReading>();
  for (const row of rows) {
    const reading = readingOf(row);
    if (reading) readings.set(reading.url, reading);
  }
  return readings;
}

/** Keeps a reading of its address, in place of any earlier one. */
export async function saveCardReading(
  pool: Pick<pg.Pool, 'query'>,
  reading: CardReading,
): Promise<void> {
  await pool.query(
    `INSERT INTO "embed_cards" ("url", "state", "card", "reason", "readAt")
      VALUES ($1, $2, $3, $4, now())
      ON CONFLICT ("url") DO UPDATE SET "state" = EXCLUDED."state", "card" = EXCLUDED."card",
        "reason" = EXCLUDED."reason", "readAt" = EXCLUDED."readAt"`,
    [
      reading.url,
      reading.state,
      reading.state === 'read' ? JSON.stringify(reading.card) : null,
      reading.state === 'unreachable' ? reading.reason : null,
    ],
  );
}
