import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { DeskSeats, MySeats, SeatPool, SeatRequest } from '../../../contract/seats.js';
import { formatMoney } from '../../../contract/plan-rules.js';
import { SEAT_NOTE_MAX, SEAT_NOTE_MIN } from '../../../contract/seat-rules.js';
import { cleanProse } from '../../../contract/text-hygiene.js';
import { withTransaction } from '../db/transaction.js';
import { writeAudit } from '../staff/audit.js';
import type { Staff } from '../staff/staff.js';
import type { GiftMailDeps } from '../gifts/gifts.js';
import { DomainError } from '../domain-error.js';
import { lockUserId } from '../memberships/ledger.js';
import { grantSeat } from './seat-ledger.js';

/**
 * Solidarity seats (docs/decisions/0024-gifts-and-solidarity-seats.md): the pool supporters fund,
 * the requests readers make, grants by an owner or by the monthly number, and the mail each is
 * owed. The money (a funding's payment, a grant's period) is in seat-ledger.ts.
 *
 * A funding's seats count while its payment stands (`active`); refunded, lost in a dispute, or
 * disputed for now, its seats not yet granted are out of the pool, and those granted stay given.
 * A funding is for one tier, and each seat granted from it is a year of that tier; the pool is one,
 * whatever the tiers.
 */

export type SeatDeps = GiftMailDeps & { graceDays: number };

/** Seats left in fundings whose payment stands, requests granted, and requests waiting. */
const POOL_SQL = `
  SELECT (SELECT count(*) FROM seat_requests WHERE state = 'granted')::int AS given,
         (SELECT COALESCE(sum(f.seats - (SELECT count(*) FROM seat_requests r
                                          WHERE r."fundingId" = f.id AND r.state = 'granted')), 0)
          FROM seat_fundings f WHERE f.state = 'active')::int AS available,
         (SELECT count(*) FROM seat_requests WHERE state = 'open')::int AS waiting`;

export async function readSeatPool(pool: pg.Pool): Promise<SeatPool> {
  const { rows } = await pool.query<SeatPool>(POOL_SQL);
  return rows[0] ?? { given: 0, available: 0, waiting: 0 };
}

function cleanNote(note: string): string {
  const text = cleanProse(note);
  if (text.length < SEAT_NOTE_MIN || text.length > SEAT_NOTE_MAX) {
    throw new DomainError(
      400,
      'invalid_note',
      `Write a few words (${SEAT_NOTE_MIN} to ${SEAT_NOTE_MAX} characters) about why a seat would help.`,
    );
  }
  return text;
}

const toRequest = (row: {
  id: string;
  note: string;
  state: SeatRequest['state'];
  createdAt: Date;
  decidedAt: Date | null;
}): SeatRequest => ({
  id: row.id,
  note: row.note,
  state: row.state,
  createdAt: row.createdAt.toISOString(),
  decidedAt: row.decidedAt?.toISOString() ?? null,
});

/**
 * A reader asks for a seat: one open request at a time, and not while they have access. Their
 * account's lock makes two requests at once one.
 */
export async function requestSeat(
  pool: pg.Pool,
  input: { userId: string; note: string },
): Promise<SeatRequest> {
  const note = cleanNote(input.note);
  return withTransaction(pool, async (tx) => {
    await lockUserId(tx, input.userId);
    const { rows } = await tx.query<{ open: boolean; member: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM seat_requests WHERE "userId" = $1 AND state = 'open') AS open,
              EXISTS (SELECT 1 FROM memberships WHERE "userId" = $1 AND "expiresAt" > now()
                        AND status IN ('active', 'trialing', 'past_due')) AS member`,
      [input.userId],
    );
    if (rows[0]?.member) {
      throw new DomainError(409, 'already_member', 'You are a member already: no seat is needed.');
    }
    if (rows[0]?.open) {
      throw new DomainError(
        409,
        'request_open',
        'You have asked for a seat already: we mail you when it is granted.',
      );
    }
    const { rows: made } = await tx.query(
      `INSERT INTO seat_requests (id, "userId", note, state) VALUES ($1, $2, $3, 'open')
       RETURNING id, note, state, "createdAt", "decidedAt"`,
      [randomUUID(), input.userId, note],
    );
    return toRequest(made[0]);
  });
}

/** The reader withdraws their open request. */
export async function withdrawSeatRequest(pool: pg.Pool, userId: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE seat_requests SET state = 'withdrawn', "decidedAt" = now()
     WHERE "userId" = $1 AND state = 'open'`,
    [userId],
  );
  return (rowCount ?? 0) > 0;
}

const GRANTED_BY_FUNDING = `(SELECT count(*) FROM seat_requests r
                             WHERE r."fundingId" = f.id AND r.state = 'granted')::int`;

/** The reader's requests, and the seats they funded with how many are in use. */
export async function readMySeats(pool: pg.Pool, userId: string): Promise<MySeats> {
  const [requests, fundings] = await Promise.all([
    pool.query(
      `SELECT id, note, state, "createdAt", "decidedAt" FROM seat_requests
       WHERE "userId" = $1 ORDER BY "createdAt" DESC LIMIT 20`,
      [userId],
    ),
    pool.query(
      `SELECT f.id, f.seats, ${GRANTED_BY_FUNDING} AS granted, f."amountCents", f.currency,
              f."paidAt", f.state::text
       FROM seat_fundings f
       WHERE f."supporterUserId" = $1
          OR f."supporterUserId" IN (SELECT "fromUserId" FROM user_merges WHERE "toUserId" = $1)
       ORDER BY f."paidAt" DESC`,
      [userId],
    ),
  ]);
  return {
    requests: requests.rows.map(toRequest),
    fundings: fundings.rows.map((row) => ({ ...row, paidAt: row.paidAt.toISOString() })),
  };
}

const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/** The desk's view: the pool, the monthly number, every open request and the recent others. */
export async function readDeskSeats(pool: pg.Pool, now = new Date()): Promise<DeskSeats> {
  const [counts, setting, requests, fundings] = await Promise.all([
    pool.query(
      `${POOL_SQL},
         (SELECT count(*) FROM seat_requests
          WHERE state = 'granted' AND "decidedBy" IS NULL AND "decidedAt" >= $1)::int
           AS "grantedThisMonth"`,
      [monthStart(now)],
    ),
    pool.query<{ autoGrantPerMonth: number }>(
      `SELECT "autoGrantPerMonth" FROM seat_pool WHERE id = 1`,
    ),
    pool.query(
      `SELECT r.id, r."userId", u.email, r.note, r.state, r."createdAt", r."decidedAt"
       FROM seat_requests r JOIN users u ON u.id = r."userId"
       WHERE r.state = 'open' OR r."decidedAt" > now() - interval '90 days'
       ORDER BY (r.state = 'open') DESC, r."createdAt" LIMIT 500`,
    ),
    pool.query(
      `SELECT f.id, f."supporterEmail", f.seats, t.slug AS tier, t.name AS "tierName",
              ${GRANTED_BY_FUNDING} AS granted, f."amountCents", f.currency, f."paidAt",
              f.state::text, f."paymentIntentId"
       FROM seat_fundings f JOIN tiers t ON t.id = f."tierId"
       ORDER BY f."paidAt" DESC LIMIT 500`,
    ),
  ]);
  const row = counts.rows[0];
  return {
    pool: { given: row.given, available: row.available, waiting: row.waiting },
    grantedThisMonth: row.grantedThisMonth,
    autoGrantPerMonth: setting.rows[0]?.autoGrantPerMonth ?? 0,
    requests: requests.rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
    })),
    fundings: fundings.rows.map((f) => ({ ...f, paidAt: f.paidAt.toISOString() })),
  };
}

/** An owner sets how many open requests are granted on their own each month. */
export async function setAutoGrant(
  pool: pg.Pool,
  staff: Pick<Staff, 'userId' | 'email'>,
  autoGrantPerMonth: number,
): Promise<void> {
  await withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<{ autoGrantPerMonth: number }>(
      `SELECT "autoGrantPerMonth" FROM seat_pool WHERE id = 1 FOR UPDATE`,
    );
    await tx.query(
      `INSERT INTO seat_pool (id, "autoGrantPerMonth", "updatedAt", "updatedBy")
       VALUES (1, $1, now(), $2)
       ON CONFLICT (id) DO UPDATE SET "autoGrantPerMonth" = $1, "updatedAt" = now(),
                                      "updatedBy" = $2`,
      [autoGrantPerMonth, staff.userId],
    );
    await writeAudit(tx, staff, {
      action: 'seats_auto_grant',
      targetUserId: null,
      before: { autoGrantPerMonth: rows[0]?.autoGrantPerMonth ?? 0 },
      after: { autoGrantPerMonth },
    });
  });
}

/** An owner grants a request (from the oldest funding with a seat left) or declines it. */
export async function decideSeatRequest(
  deps: SeatDeps,
  staff: Pick<Staff, 'userId' | 'email'>,
  input: { requestId: string; grant: boolean },
): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    const now = new Date();
    if (input.grant) {
      const granted = await grantSeat(
        tx,
        { requestId: input.requestId, grantedBy: staff.userId, now },
        { graceDays: deps.graceDays },
      );
      if (!granted) {
        const { rows } = await tx.query(`SELECT state FROM seat_requests WHERE id = $1`, [
          input.requestId,
        ]);
        if (rows[0]?.state !== 'open') throw requestNotOpen();
        throw new DomainError(
          409,
          'pool_empty',
          'No seat is left in the pool: every funded seat is granted.',
        );
      }
      await writeAudit(tx, staff, {
        action: 'seat_grant',
        targetUserId: granted.userId,
        before: { requestId: input.requestId, state: 'open' },
        after: { requestId: input.requestId, state: 'granted', fundingId: granted.fundingId },
      });
      return;
    }
    const { rows } = await tx.query<{ userId: string }>(
      `UPDATE seat_requests SET state = 'declined', "decidedAt" = $2, "decidedBy" = $3
       WHERE id = $1 AND state = 'open' RETURNING "userId"`,
      [input.requestId, now, staff.userId],
    );
    const declined = rows[0];
    if (!declined) throw requestNotOpen();
    await writeAudit(tx, staff, {
      action: 'seat_decline',
      targetUserId: declined.userId,
      before: { requestId: input.requestId, state: 'open' },
      after: { requestId: input.requestId, state: 'declined' },
    });
  });
}

const requestNotOpen = () =>
  new DomainError(404, 'not_found', 'No open request has this id: it was decided or withdrawn.');

/**
 * Grants the oldest open requests, first come first served, up to the monthly number (counted in
 * the calendar month, UTC) and while the pool has seats. Each grant its own transaction.
 */
export async function grantAutomatically(deps: SeatDeps, now = new Date()): Promise<number> {
  let granted = 0;
  for (;;) {
    const done = await withTransaction(deps.pool, async (tx) => {
      // One server at a time decides the month's count: a lock for this transaction.
      await tx.query(`SELECT pg_advisory_xact_lock(1129270355)`);
      const { rows } = await tx.query<{ allowed: number; used: number; next: string | null }>(
        `SELECT COALESCE((SELECT "autoGrantPerMonth" FROM seat_pool WHERE id = 1), 0) AS allowed,
                (SELECT count(*) FROM seat_requests WHERE state = 'granted'
                   AND "decidedBy" IS NULL AND "decidedAt" >= $1)::int AS used,
                (SELECT id FROM seat_requests WHERE state = 'open'
                 ORDER BY "createdAt", id LIMIT 1) AS next`,
        [monthStart(now)],
      );
      const row = rows[0];
      if (!row?.next || row.used >= row.allowed) return false;
      return (
        (await grantSeat(
          tx,
          { requestId: row.next, grantedBy: null, now },
          { graceDays: deps.graceDays },
        )) !== null
      );
    });
    if (!done) return granted;
    granted += 1;
  }
}

/**
 * Mails what seats owe: the supporter's receipt, and the reader's notice that their seat was
 * granted. Each row locked while its mail goes; a refused mail is tried at the next sweep.
 */
export async function deliverSeatMails(deps: SeatDeps): Promise<{ sent: number; failed: number }> {
  const report = { sent: 0, failed: 0 };
  const kinds = [
    {
      select: `SELECT id, "supporterEmail" AS to, seats, "amountCents", currency FROM seat_fundings
               WHERE "receiptSentAt" IS NULL AND "supporterEmail" IS NOT NULL
                 AND state IN ('active', 'suspended') AND NOT (id = ANY($1::uuid[]))
               ORDER BY "paidAt" LIMIT 1 FOR UPDATE SKIP LOCKED`,
      mark: `UPDATE seat_fundings SET "receiptSentAt" = now() WHERE id = $1`,
      mail: (row: MailRow) => ({
        to: row.to,
        subject: `Your ${row.seats === 1 ? 'seat' : `${row.seats} seats`} for ${deps.siteName}: receipt`,
        text:
          `Thank you. You paid ${formatMoney(row.amountCents ?? 0, row.currency ?? 'usd')} for ` +
          `${row.seats === 1 ? 'a year' : `${row.seats} years`} of ${deps.siteName} for readers ` +
          `who cannot pay.\n\nEach seat goes to a reader who asks for one. Your account page ` +
          `shows how many are in use: ${deps.siteUrl}/account\n`,
      }),
    },
    {
      select: `SELECT r.id, u.email AS to FROM seat_requests r JOIN users u ON u.id = r."userId"
               WHERE r.state = 'granted' AND r."notifiedAt" IS NULL AND u.email IS NOT NULL
                 AND NOT (r.id = ANY($1::uuid[]))
               ORDER BY r."decidedAt" LIMIT 1 FOR UPDATE OF r SKIP LOCKED`,
      mark: `UPDATE seat_requests SET "notifiedAt" = now() WHERE id = $1`,
      mail: (row: MailRow) => ({
        to: row.to,
        subject: `A year of ${deps.siteName}, from a reader who paid it forward`,
        text:
          `Your request for a seat was granted: a reader paid for a year of ${deps.siteName} ` +
          `for someone who could not, and it is yours from today.\n\n` +
          `Sign in and start reading: ${deps.siteUrl}/\n`,
      }),
    },
  ];
  for (const kind of kinds) {
    const tried: string[] = [];
    while (tried.length < 200) {
      const outcome = await withTransaction(deps.pool, async (tx) => {
        const { rows } = await tx.query<MailRow>(kind.select, [tried]);
        const row = rows[0];
        if (!row) return 'none' as const;
        tried.push(row.id);
        try {
          await deps.mailer.send(kind.mail(row));
        } catch (error) {
          deps.log.error({ err: error, id: row.id }, 'could not send a seat mail');
          return 'failed' as const;
        }
        await tx.query(kind.mark, [row.id]);
        return 'sent' as const;
      });
      if (outcome === 'none') break;
      report[outcome] += 1;
    }
  }
  return report;
}

interface MailRow {
  id: string;
  to: string;
  seats?: number;
  amountCents?: number;
  currency?: string;
}
