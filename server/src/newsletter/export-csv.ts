import type { Services } from '../services.js';

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
 * Writes every confirmed subscriber as CSV (email, confirmed at, user id when the address is a
 * registered user's), a page at a time: memory stays flat however long the list is.
 */
export async function exportConfirmedSubscribers(
  { db }: Pick<Services, 'db'>,
  write: (chunk: string) => void | Promise<void>,
): Promise<number> {
  await write('email,confirmed_at,user_id\r\n');
  let after: string | undefined;
  let count = 0;
  for (;;) {
    const rows = await db.prisma.newsletterSubscriber.findMany({
      where: { state: 'confirmed', ...(after && { id: { gt: after } }) },
      orderBy: { id: 'asc' },
      take: PAGE,
      select: { id: true, email: true, confirmedAt: true, userId: true },
    });
    if (rows.length === 0) return count;
    await write(
      rows
        .map((row) =>
          [row.email, row.confirmedAt?.toISOString() ?? '', row.userId ?? '']
            .map(csvCell)
            .join(','),
        )
        .join('\r\n') + '\r\n',
    );
    count += rows.length;
    after = rows[rows.length - 1]?.id;
  }
}
