/**
 * Access derived from the ledger (docs/decisions/0008-membership-ledger.md): a pure
 * function of a user's entitlements and subscriptions, so the webhook, the checkout return, a
 * sign-in merge and the tests all agree on what was paid and kept.
 */

export type EntitlementSource = 'one-time' | 'subscription-invoice' | 'comp' | 'gift' | 'sponsored';
export type EntitlementState = 'active' | 'suspended' | 'refunded' | 'revoked';

export interface LedgerEntry {
  id: string;
  source: EntitlementSource;
  subscriptionId: string | null;
  paidAt: Date;
  periodStart: Date | null;
  periodEnd: Date | null;
  /**
   * One-time purchases, claimed gifts and granted seats: days of access placed after the time
   * already held (from the payment, or from the claim or grant: its `periodStart`).
   */
  days: number | null;
  state: EntitlementState;
  /** The tier this period is access to (`tiers`); a ledger from before tiers has only the first. */
  tierId?: number;
}

export interface LedgerSubscription {
  id: string;
  status: string;
  /** When Stripe ended it; a canceled subscription's paid period counts until then. */
  endedAt?: Date | null;
}

export interface DerivedMembership {
  plan: 'one-time' | 'subscription';
  status: string;
  expiresAt: Date;
  /** The tier it gives access to now: see `tierOf`. */
  tierId: number;
}

/** The first tier (the membership sold before tiers): an entry that names none is for it. */
export const FIRST_TIER_ID = 1;

export interface Coverage {
  entryId: string;
  start: Date;
  end: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Subscription statuses under which the subscription's paid periods count. */
export const LIVE_SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set([
  'active',
  'trialing',
  'past_due',
]);

/** Statuses that give access while `expiresAt` is in the future. */
export const ACCESS_STATUSES: ReadonlySet<string> = LIVE_SUBSCRIPTION_STATUSES;

interface Interval {
  start: number;
  end: number;
}

/**
 * Until when this entry's period counts towards access: its end, or for a subscription that
 * Stripe ended (canceled), when it ended. Null: it does not count at all (taken back, or its
 * subscription stopped without an end Stripe told: unpaid, incomplete_expired, paused).
 */
function countsUntil(
  entry: LedgerEntry,
  subscriptions: Map<string, LedgerSubscription>,
): number | null {
  if (entry.state !== 'active') return null;
  const end = entry.periodEnd?.getTime() ?? Number.POSITIVE_INFINITY;
  if (entry.source !== 'subscription-invoice') return end;
  const subscription = entry.subscriptionId ? subscriptions.get(entry.subscriptionId) : undefined;
  if (!subscription) return null;
  if (LIVE_SUBSCRIPTION_STATUSES.has(subscription.status)) return end;
  if (subscription.status === 'canceled' && subscription.endedAt) {
    return Math.min(end, subscription.endedAt.getTime());
  }
  return null;
}

/**
 * Where an entry that fills days starts looking for free time: a one-time year from its payment,
 * a gift from its claim and a solidarity seat from its grant (their `periodStart`).
 */
const fillsFrom = (entry: LedgerEntry) =>
  (entry.source === 'one-time' ? entry.paidAt : (entry.periodStart ?? entry.paidAt)).getTime();

/**
 * Places every counted entry on the time line. Fixed periods (subscription invoices, comps) sit
 * where they are; each one-time purchase (in the order paid) and each claimed gift (from its
 * claim) fills its days into the first time from then on that nothing else covers, so no paid day
 * is ever spent twice.
 */
export function placeEntries(
  entries: readonly LedgerEntry[],
  subscriptions: readonly LedgerSubscription[],
): Coverage[] {
  const byId = new Map(subscriptions.map((s) => [s.id, s]));
  const counted = entries.filter((entry) => countsUntil(entry, byId) !== null);
  const placed: (Interval & { entryId: string })[] = [];
  for (const entry of counted) {
    if (entry.days !== null || !entry.periodStart || !entry.periodEnd) continue;
    const start = entry.periodStart.getTime();
    const end = countsUntil(entry, byId) ?? start;
    if (end > start) placed.push({ entryId: entry.id, start, end });
  }
  const filling = counted
    .filter((entry) => entry.days !== null)
    .sort((a, b) => fillsFrom(a) - fillsFrom(b) || a.id.localeCompare(b.id));
  for (const entry of filling) {
    let cursor = fillsFrom(entry);
    let remaining = (entry.days ?? 0) * DAY_MS;
    while (remaining > 0) {
      const occupied = [...placed].sort((a, b) => a.start - b.start);
      const covering = occupied.find((i) => i.start <= cursor && cursor < i.end);
      if (covering) {
        cursor = covering.end;
        continue;
      }
      const next = occupied.find((i) => i.start > cursor);
      const end = next ? Math.min(next.start, cursor + remaining) : cursor + remaining;
      placed.push({ entryId: entry.id, start: cursor, end });
      remaining -= end - cursor;
      cursor = end;
    }
  }
  return placed
    .sort((a, b) => a.start - b.start)
    .map((i) => ({ entryId: i.entryId, start: new Date(i.start), end: new Date(i.end) }));
}

/** Merges touching or overlapping intervals. */
function mergeIntervals(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}

/** Why a user with a ledger has no access: the state of their latest entry. */
function noAccessStatus(
  latest: LedgerEntry | undefined,
  subscriptions: readonly LedgerSubscription[],
): string {
  if (latest?.state === 'refunded') return 'refunded';
  if (latest?.state === 'revoked') return 'revoked';
  if (latest?.state === 'suspended') return 'disputed';
  const subscription = subscriptions.find((s) => s.id === latest?.subscriptionId);
  if (subscription && !LIVE_SUBSCRIPTION_STATUSES.has(subscription.status)) {
    return subscription.status;
  }
  return 'expired';
}

/**
 * The unbroken runs of access the placed coverage gives, with a `past_due` subscription's grace
 * days after its last paid period: a renewal that failed keeps access for the grace days, never
 * for the period Stripe has moved on to but nobody paid.
 */
function runsOf(
  coverage: readonly Coverage[],
  entries: readonly LedgerEntry[],
  subscriptions: readonly LedgerSubscription[],
  graceDays: number,
): Interval[] {
  const intervals: Interval[] = coverage.map((c) => ({
    start: c.start.getTime(),
    end: c.end.getTime(),
  }));
  const pastDue = subscriptions.find((s) => s.status === 'past_due');
  if (pastDue) {
    const paidEnds = coverage
      .filter((c) => entries.find((e) => e.id === c.entryId)?.subscriptionId === pastDue.id)
      .map((c) => c.end.getTime());
    if (paidEnds.length > 0) {
      const lastPaidEnd = Math.max(...paidEnds);
      intervals.push({ start: lastPaidEnd, end: lastPaidEnd + graceDays * DAY_MS });
    }
  }
  return mergeIntervals(intervals);
}

/**
 * Every unbroken run of access the ledger gives a user, past, present and future, oldest first:
 * what `deriveMembership` reads the current one from, and what the desk counts members joining and
 * leaving with.
 */
export function accessRuns(
  entries: readonly LedgerEntry[],
  subscriptions: readonly LedgerSubscription[],
  options: { graceDays: number },
): { start: Date; end: Date }[] {
  const coverage = placeEntries(entries, subscriptions);
  return runsOf(coverage, entries, subscriptions, options.graceDays).map((run) => ({
    start: new Date(run.start),
    end: new Date(run.end),
  }));
}

/**
 * What the ledger gives now: null for a user who never paid. `expiresAt` is the end of the
 * unbroken run of covered time that holds `now` (for a `past_due` subscription, its last paid
 * period's end plus the grace days), or the end of the last run when none holds `now`, or the
 * latest payment's date when nothing counts.
 */
export function deriveMembership(
  entries: readonly LedgerEntry[],
  subscriptions: readonly LedgerSubscription[],
  options: { graceDays: number; now: Date },
): DerivedMembership | null {
  if (entries.length === 0) return null;
  const now = options.now.getTime();
  const coverage = placeEntries(entries, subscriptions);
  const pastDue = subscriptions.find((s) => s.status === 'past_due');
  const runs = runsOf(coverage, entries, subscriptions, options.graceDays);
  const current = runs.find((run) => run.start <= now && now < run.end);
  const live = subscriptions.find((s) => LIVE_SUBSCRIPTION_STATUSES.has(s.status));
  if (current) {
    const paidNow = coverage.some((c) => c.start.getTime() <= now && now < c.end.getTime());
    return {
      plan: live ? 'subscription' : 'one-time',
      status: pastDue && !paidNow ? 'past_due' : (live?.status ?? 'active'),
      expiresAt: new Date(current.end),
      tierId: tierOf(entries, coverage, now),
    };
  }
  const last = runs.filter((run) => run.end <= now).at(-1);
  const latest = [...entries].sort((a, b) => b.paidAt.getTime() - a.paidAt.getTime())[0];
  const why = noAccessStatus(latest, subscriptions);
  return {
    plan: live || latest?.source === 'subscription-invoice' ? 'subscription' : 'one-time',
    status: why === 'expired' && live ? live.status : why,
    // Nothing ever counted (every payment taken back): the latest payment's date, so the row
    // reads the same however often, and whenever, the ledger is recomputed.
    expiresAt: new Date(last?.end ?? latest?.paidAt.getTime() ?? now),
    tierId: tierOf(entries, coverage, now),
  };
}

/**
 * The tier a membership is of at `now`: the tier of the period that covers it (of several, the
 * one paid last: a move to another tier is the newest payment; paid in the same second, the one
 * that starts later, as a move's period starts inside the one it replaces); between periods (a
 * past-due grace) or after them, the tier of the last period that covered any time; with nothing
 * counted, the latest payment's.
 */
function tierOf(entries: readonly LedgerEntry[], coverage: readonly Coverage[], now: number) {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const paidLast = (a: Coverage, b: Coverage) =>
    (byId.get(b.entryId)?.paidAt.getTime() ?? 0) - (byId.get(a.entryId)?.paidAt.getTime() ?? 0) ||
    b.start.getTime() - a.start.getTime();
  const covering = coverage
    .filter((c) => c.start.getTime() <= now && now < c.end.getTime())
    .sort(paidLast)[0];
  const before = coverage.filter((c) => c.start.getTime() <= now).at(-1);
  const latest = [...entries].sort((a, b) => b.paidAt.getTime() - a.paidAt.getTime())[0];
  const entry = byId.get((covering ?? before)?.entryId ?? '') ?? latest;
  return entry?.tierId ?? FIRST_TIER_ID;
}
