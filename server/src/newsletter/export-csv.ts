import type { Services } from '../services.js';
import { accountOfSubscriberSql } from './consent.js';

/**
 * One CSV cell. Quoted always, quotes doubled; and a cell a spreadsheet would run as a formula
 * (starting with =, +, -, @, a tab or a carriage return) gets a leading apostrophe, as OWASP
 * advises for CSV injection, so opening the export never runs anything.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

const PAGE = 1000;

/**
 * The export's columns: email, confirmed at, and the id of the account at the address when there
 * is one (consent.ts: proved by its owner yet or not).
 */
export const SUBSCRIBER_COLUMNS = ['email', 'confirmed_at', 'user_id'] as const;
export type SubscriberRow = Record<(typeof SUBSCRIBER_COLUMNS)[number], string>;

/**
 * Every confirmed subscriber, a page (keyset by id) at a time: memory stays flat however long the
 * list is. The CLI's export and the desk's both read it.
 */
export async function* confirmedSubscriberPages({
  db,
}: Pick<Services, 'db'>): AsyncGenerator<SubscriberRow[]> {
  let after: string | undefined;
  for (;;) {
    const { rows } = await db.pool.query<{
      id: string;
      email: string;
      confirmedAt: Date | null;
      userId: string | null;
    }>(
      `SELECT s.id, s.email, s."confirmedAt", ${accountOfSubscriberSql('s')} AS "userId"
       FROM newsletter_subscribers s
       WHERE s.state = 'confirmed' AND ($1::uuid IS NULL OR s.id > $1::uuid)
       ORDER BY s.id LIMIT $2`,
      [after ?? null, PAGE],
    );
    if (rows.length === 0) return;
    yield rows.map((row) => ({
      email: row.email,
      confirmed_at: row.confirmedAt?.toISOString() ?? '',
      user_id: row.userId ?? '',
    }));
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]?.id;
  }
}

/** Writes every confirmed subscriber as CSV (the CLI's `newsletter:export`). */
export async function exportConfirmedSubscribers(
  deps: Pick<Services, 'db'>,
  write: (chunk: string) => void | Promise<void>,
): Promise<number> {
  await write(`${SUBSCRIBER_COLUMNS.join(',')}\r\n`);
  let count = 0;
  for await (const rows of confirmedSubscriberPages(deps)) {
    await write(
      rows
        .map((row) => SUBSCRIBER_COLUMNS.map((column) => csvCell(row[column])).join(','))
        .join('\r\n') + '\r\n',
    );
    count += rows.length;
  }
  return count;
}
