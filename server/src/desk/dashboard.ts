import type { DeskDashboard } from '../../../contract/desk-api.js';
import {
  accessRuns,
  type LedgerEntry,
  type LedgerSubscription,
} from '../memberships/derive-membership.js';
import { accountOfSubscriberSql } from '../newsletter/consent.js';
import type { Services } from '../services.js';
import { hasAccessSql } from './member-filters.js';
import { readRevenueByTier } from './revenue-by-tier.js';

/**
 * "What earns": the desk's dashboard, read from the ledger.
 * - Members now by what gives them access: a live subscription, else a comp covering now, else
 *   one-time purchases.
 * - Members joining and leaving per week: each user's runs of access, placed by the memberships
 *   module's own rule (`accessRuns`); a run that begins is a new member (one coming back counts
 *   again), a run that ends (by now) is a lost one. So members at the end of a week = members at
 *   its start + new − lost.
 * - Subscribers split by their live subscription's plan (monthly or yearly), and each month's
 *   revenue by plan (a subscription invoice by the period it paid: a month or a year) and gifts
 *   and solidarity seats (counted when bought, claimed or granted or not: the money came then).
 * - Money per month in the configured currency: payments by the day they were paid; full refunds
 *   and lost disputes by the day Cohort learned of them (a partial refund does not take a period
 *   back, so it is not counted here; Stripe's Dashboard has it).
 * - Each tier's members now and what was paid for it (revenue-by-tier.ts).
 * - Perk claims: each member who revealed a shared code or link, and each single-use code given.
 * - The newsletter list by state; a sign-up whose confirmation link has expired is not counted
 *   (the newsletter's sweep drops it; the dashboard only reads), and how many of the confirmed
 *   subscribers are members now (by the account linked to the address).
 * Weeks run Monday to Monday, months by the calendar, both in UTC.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
export const DASHBOARD_WEEKS = 12;
export const DASHBOARD_MONTHS = 12;

/** Monday 00:00 UTC of the week holding `date`. */
export function weekStart(date: Date): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS);
}

const monthStart = (date: Date, back = 0) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - back, 1));

interface LedgerRow extends LedgerEntry {
  userId: string;
  kind: 'entry' | 'subscription';
  status: string;
  endedAt: Date | null;
}

export interface DashboardOptions {
  currency: string;
  graceDays: number;
  /** Perk ids and their titles, for the perk table (claims of unknown perks keep their id). */
  perkTitles: ReadonlyMap<string, string>;
  now?: Date;
}

/** Every user's runs of access, from the whole ledger (one pass, grouped by user). */
async function everyonesRuns(
  { db }: Pick<Services, 'db'>,
  graceDays: number,
): Promise<{ start: Date; end: Date }[]> {
  const { rows } = await db.pool.query<LedgerRow>(
    `SELECT "userId", 'entry' AS kind, id, source::text AS source, "subscriptionId", "paidAt",
            "periodStart", "periodEnd", days, state::text AS state, NULL AS status,
            NULL::timestamptz AS "endedAt"
     FROM entitlements
     UNION ALL
     SELECT "userId", 'subscription', id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, status,
            "endedAt"
     FROM subscriptions
     ORDER BY 1`,
  );
  const runs: { start: Date; end: Date }[] = [];
  let index = 0;
  while (index < rows.length) {
    const userId = rows[index]?.userId;
    const entries: LedgerEntry[] = [];
    const subscriptions: LedgerSubscription[] = [];
    for (; index < rows.length && rows[index]?.userId === userId; index += 1) {
      const row = rows[index] as LedgerRow;
      if (row.kind === 'entry') entries.push(row);
      else subscriptions.push(row);
    }
    runs.push(...accessRuns(entries, subscriptions, { graceDays }));
  }
  return runs;
}

export async function readDashboard(
  { db }: Pick<Services, 'db'>,
  options: DashboardOptions,
): Promise<DeskDashboard> {
  const now = options.now ?? new Date();
  const firstWeek = new Date(weekStart(now).getTime() - (DASHBOARD_WEEKS - 1) * 7 * DAY_MS);
  const firstMonth = monthStart(now, DASHBOARD_MONTHS - 1);

  const [active, money, otherCurrencies, claims, newsletter, runs, offers] = await Promise.all([
    db.pool.query<{
      subscription: number;
      monthly: number;
      yearly: number;
      comp: number;
      oneTime: number;
    }>(
      `SELECT count(*) FILTER (WHERE m.plan = 'subscription')::int AS subscription,
              count(*) FILTER (WHERE m.plan = 'subscription' AND live.interval = 'month')::int
                AS monthly,
              count(*) FILTER (WHERE m.plan = 'subscription' AND live.interval IS DISTINCT FROM 'month')::int
                AS yearly,
              count(*) FILTER (WHERE m.plan <> 'subscription' AND comp.covering)::int AS comp,
              count(*) FILTER (WHERE m.plan <> 'subscription' AND NOT comp.covering)::int
                AS "oneTime"
       FROM memberships m
       CROSS JOIN LATERAL (
         SELECT EXISTS (SELECT 1 FROM entitlements e
                        WHERE e."userId" = m."userId" AND e.source = 'comp' AND e.state = 'active'
                          AND e."periodStart" <= $1 AND e."periodEnd" > $1) AS covering
       ) comp
       LEFT JOIN LATERAL (
         SELECT s.interval FROM subscriptions s
         WHERE s."userId" = m."userId" AND s.status IN ('active', 'trialing', 'past_due')
         ORDER BY s."stripeCreatedAt" DESC LIMIT 1
       ) live ON true
       WHERE ${hasAccessSql('$1')}`,
      [now],
    ),
    db.pool.query<{
      month: Date;
      payments: number;
      revenueCents: number;
      oneTimeCents: number;
      monthlyCents: number;
      yearlyCents: number;
      giftCents: number;
      seatsCents: number;
      refundedCents: number;
      disputeLostCents: number;
    }>(
      `WITH payments AS (
         SELECT source::text AS source, "amountCents", currency, "paidAt", "periodStart",
                "periodEnd", state, "stateReason", "stateReadAt"
         FROM entitlements WHERE source NOT IN ('comp', 'gift', 'sponsored')
         UNION ALL
         SELECT 'gift', "amountCents", currency, "paidAt", NULL, NULL, state, "stateReason",
                "stateReadAt"
         FROM gifts
         UNION ALL
         SELECT 'seats', "amountCents", currency, "paidAt", NULL, NULL, state, "stateReason",
                "stateReadAt"
         FROM seat_fundings
       ), paid AS (
         SELECT date_trunc('month', "paidAt" AT TIME ZONE 'UTC') AS month,
                count(*)::int AS payments, sum("amountCents")::int AS revenue,
                sum("amountCents") FILTER (WHERE source = 'one-time')::int AS "oneTime",
                sum("amountCents") FILTER (WHERE source = 'subscription-invoice'
                  AND "periodEnd" - "periodStart" <= interval '60 days')::int AS monthly,
                sum("amountCents") FILTER (WHERE source = 'subscription-invoice'
                  AND "periodEnd" - "periodStart" > interval '60 days')::int AS yearly,
                sum("amountCents") FILTER (WHERE source = 'gift')::int AS gift,
                sum("amountCents") FILTER (WHERE source = 'seats')::int AS seats
         FROM payments
         WHERE currency = $1 AND "paidAt" >= $2 AND "paidAt" <= $3
         GROUP BY 1
       ), taken AS (
         SELECT date_trunc('month', "stateReadAt" AT TIME ZONE 'UTC') AS month,
                sum("amountCents") FILTER (WHERE state = 'refunded'
                                              OR "stateReason" = 'duplicate_subscription')::int
                  AS refunded,
                sum("amountCents") FILTER (WHERE "stateReason" = 'dispute_lost')::int AS lost
         FROM payments
         WHERE currency = $1 AND state IN ('refunded', 'revoked')
           AND "stateReadAt" >= $2 AND "stateReadAt" <= $3
         GROUP BY 1
       )
       SELECT (COALESCE(paid.month, taken.month) AT TIME ZONE 'UTC') AS month,
              COALESCE(paid.payments, 0) AS payments,
              COALESCE(paid.revenue, 0) AS "revenueCents",
              COALESCE(paid."oneTime", 0) AS "oneTimeCents",
              COALESCE(paid.monthly, 0) AS "monthlyCents",
              COALESCE(paid.yearly, 0) AS "yearlyCents",
              COALESCE(paid.gift, 0) AS "giftCents",
              COALESCE(paid.seats, 0) AS "seatsCents",
              COALESCE(taken.refunded, 0) AS "refundedCents",
              COALESCE(taken.lost, 0) AS "disputeLostCents"
       FROM paid FULL JOIN taken ON taken.month = paid.month`,
      [options.currency, firstMonth, now],
    ),
    db.pool.query<{ currency: string; payments: number }>(
      `SELECT currency, count(*)::int AS payments
       FROM (SELECT currency FROM entitlements WHERE source NOT IN ('comp', 'gift', 'sponsored')
             UNION ALL SELECT currency FROM gifts
             UNION ALL SELECT currency FROM seat_fundings) payments
       WHERE currency <> $1 GROUP BY currency ORDER BY currency`,
      [options.currency],
    ),
    db.pool.query<{ perkId: string; claims: number; last30Days: number }>(
      `SELECT "perkId", count(*)::int AS claims,
              count(*) FILTER (WHERE "claimedAt" > $1::timestamptz - interval '30 days')::int
                AS "last30Days"
       FROM (SELECT "perkId", "claimedAt" FROM perk_claims WHERE "claimedAt" <= $1
             UNION ALL
             SELECT "perkId", "claimedAt" FROM perk_codes WHERE "claimedAt" <= $1) claimed
       GROUP BY "perkId" ORDER BY claims DESC, "perkId"`,
      [now],
    ),
    db.pool.query<DeskDashboard['newsletter']>(
      `SELECT count(*) FILTER (WHERE n.state = 'confirmed')::int AS confirmed,
              count(*) FILTER (WHERE n.state = 'pending' AND n."confirmExpiresAt" > $1)::int
                AS pending,
              count(*) FILTER (WHERE n.state = 'unsubscribed')::int AS unsubscribed,
              count(*) FILTER (WHERE n.state = 'bouncing')::int AS bouncing,
              count(*) FILTER (WHERE n.state = 'confirmed' AND ${hasAccessSql('$1')})::int
                AS "confirmedMembers"
       FROM newsletter_subscribers n
       LEFT JOIN memberships m ON m."userId" = ${accountOfSubscriberSql('n')}`,
      [now],
    ),
    everyonesRuns({ db }, options.graceDays),
    db.pool.query<{ code: string; redemptions: number; revenueCents: number }>(
      `SELECT o.code, count(DISTINCT coalesce(e."subscriptionId", e.id))::int AS redemptions,
              coalesce(sum(e."amountCents") FILTER (WHERE e.state = 'active'), 0)::int
                AS "revenueCents"
         FROM offers o LEFT JOIN entitlements e ON e."offerId" = o.id AND NOT e.trial
        GROUP BY o.id, o.code ORDER BY "revenueCents" DESC, o.code`,
    ),
  ]);

  const tiers = await readRevenueByTier(
    { db },
    { currency: options.currency, since: firstMonth, monthStart: monthStart(now), now },
  );

  const counts = active.rows[0] ?? { subscription: 0, monthly: 0, yearly: 0, comp: 0, oneTime: 0 };
  const weeks = Array.from({ length: DASHBOARD_WEEKS }, (_, i) => {
    const start = new Date(firstWeek.getTime() + i * 7 * DAY_MS);
    const end = new Date(Math.min(start.getTime() + 7 * DAY_MS, now.getTime()));
    const within = (date: Date) => date >= start && date < end;
    return {
      start: start.toISOString(),
      newMembers: runs.filter((run) => within(run.start)).length,
      lostMembers: runs.filter((run) => within(run.end)).length,
      // Members just before the week's end (now, for the current week): so these figures add
      // up, week to week, with the new and lost ones.
      members: runs.filter((run) => run.start < end && run.end >= end).length,
    };
  });
  const byMonth = new Map(money.rows.map((row) => [row.month.toISOString(), row]));
  const months = Array.from({ length: DASHBOARD_MONTHS }, (_, i) => {
    const start = monthStart(now, DASHBOARD_MONTHS - 1 - i).toISOString();
    const row = byMonth.get(start);
    return {
      start,
      payments: row?.payments ?? 0,
      revenueCents: row?.revenueCents ?? 0,
      revenueByPlan: {
        oneTime: row?.oneTimeCents ?? 0,
        monthly: row?.monthlyCents ?? 0,
        yearly: row?.yearlyCents ?? 0,
        gift: row?.giftCents ?? 0,
        seats: row?.seatsCents ?? 0,
      },
      refundedCents: row?.refundedCents ?? 0,
      disputeLostCents: row?.disputeLostCents ?? 0,
    };
  });
  return {
    currency: options.currency,
    generatedAt: now.toISOString(),
    activeByPlan: { ...counts, total: counts.subscription + counts.comp + counts.oneTime },
    weeks,
    months,
    tiers,
    offers: offers.rows,
    otherCurrencies: otherCurrencies.rows,
    perks: claims.rows.map((row) => ({
      ...row,
      title: options.perkTitles.get(row.perkId) ?? row.perkId,
    })),
    newsletter: newsletter.rows[0] ?? {
      confirmed: 0,
      pending: 0,
      unsubscribed: 0,
      bouncing: 0,
      confirmedMembers: 0,
    },
  };
}
