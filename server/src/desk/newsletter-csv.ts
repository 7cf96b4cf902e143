import type { Readable } from 'node:stream';
import {
  confirmedSubscriberPages,
  SUBSCRIBER_COLUMNS,
  type SubscriberRow,
} from '../newsletter/export-csv.js';
import type { Tx } from '../db/transaction.js';
import type { Services } from '../services.js';
import { streamCsv } from './csv.js';

/**
 * The newsletter's confirmed subscribers as CSV (the newsletter's own keyset-paged reader, the
 * desk's streamer: formulas escaped, backpressure kept), the same columns as the CLI's export.
 */

async function* subscriberRows(deps: Pick<Services, 'db'>): AsyncGenerator<SubscriberRow> {
  for await (const page of confirmedSubscriberPages(deps)) yield* page;
}

export function streamNewsletterCsv(deps: Pick<Services, 'db'>): Readable {
  return streamCsv(SUBSCRIBER_COLUMNS, subscriberRows(deps));
}

/** How many there are now (for the audit entry of an export), read on the caller's connection. */
export async function countConfirmedSubscribers(tx: Tx): Promise<number> {
  const { rows } = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM newsletter_subscribers WHERE state = 'confirmed'`,
  );
  return rows[0]?.count ?? 0;
}
