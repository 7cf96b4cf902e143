import type pg from 'pg';
import {
  DIRECT_SOURCE,
  type AnalyticsDay,
  type AnalyticsSource,
  type AnalyticsTotals,
  type DeskAnalytics,
} from '../../../contract/analytics.js';
import type { Staff } from '../staff/staff.js';
import { readConversionsByTier } from './conversions.js';
import { readPostAddresses } from './counted-pages.js';
import { TAGGED_EVENTS } from './tagged-events.js';
import { utcDay } from './visitors.js';

/** How many posts and sources an answer lists at most. */
const MAX_POSTS = 100;
const MAX_SOURCES = 50;

export interface AnalyticsScope {
  from: string;
  to: string;
  /** Only these posts' views (a writer's, or one post's); null: the whole site. */
  postIds: readonly number[] | null;
  /** Signups, paid conversions and revenue: owners' and editors'. */
  money: boolean;
}

/**
 * What of the analytics a staff member sees: owners and editors, the whole site and its money; a
 * writer, their own posts' views alone.
 */
export async function analyticsShownTo(
  pool: pg.Pool,
  staff: Pick<Staff, 'role' | 'userId'>,
): Promise<Pick<AnalyticsScope, 'postIds' | 'money'>> {
  if (staff.role !== 'writer') return { postIds: null, money: true };
  const { rows } = await pool.query<{ postId: number }>(
    `SELECT "postId" FROM "post_authors" WHERE "userId" = $1`,
    [staff.userId],
  );
  return { postIds: rows.map((row) => row.postId), money: false };
}

interface Figures {
  days: AnalyticsDay[];
  totals: AnalyticsTotals;
  sources: AnalyticsSource[];
  postViews: Map<number, { views: number; visitors: number }>;
  conversions: Map<number, { signups: number; paid: number; revenue: number }>;
}

interface Counted {
  views: number;
  visitors: number;
}

/**
 * The figures of a range: finished days from their daily rows (whole months of posts from their
 * monthly rows), days not rolled up yet (today) from the raw views. Site-wide visitors are exact
 * for each day; a range's visitors are the sum of its days' (a reader is one visitor a day), and
 * a set of posts' the sum of each post's.
 */
async function readFigures(pool: pg.Pool, scope: AnalyticsScope): Promise<Figures> {
  const { rows: rolled } = await pool.query<{ last: string | null }>(
    `SELECT to_char(max("day"), 'YYYY-MM-DD') AS "last" FROM "analytics_days"`,
  );
  const last = rolled[0]?.last ?? null;
  const rawFrom = last && last >= scope.from ? nextDay(last) : scope.from;
  const raw = [rawFrom, scope.to, scope.postIds];
  const range = [scope.from, scope.to, scope.postIds];
  const months = wholeMonths(scope.from, scope.to);
  const site = scope.postIds === null;

  const [rolledDays, rawDays, rolledSources, rawSources, posts, conversions] = await Promise.all([
    pool.query<{ date: string } & Counted>(
      site
        ? `SELECT to_char("day", 'YYYY-MM-DD') AS "date", "views", "visitors"
             FROM "analytics_days" WHERE "day" BETWEEN $1::date AND $2::date`
        : `SELECT to_char("day", 'YYYY-MM-DD') AS "date", sum("views")::int AS "views",
                  sum("visitors")::int AS "visitors"
             FROM "analytics_day_paths"
            WHERE "day" BETWEEN $1::date AND $2::date AND "postId" = ANY($3::int[])
            GROUP BY "day"`,
      site ? [scope.from, scope.to] : range,
    ),
    pool.query<{ date: string } & Counted>(
      site
        ? `SELECT to_char("day", 'YYYY-MM-DD') AS "date", count(*)::int AS "views",
                  count(DISTINCT "visitor")::int AS "visitors"
             FROM "analytics_events" WHERE "day" BETWEEN $1::date AND $2::date
            GROUP BY "day"`
        : `SELECT to_char("day", 'YYYY-MM-DD') AS "date", sum("views")::int AS "views",
                  sum("visitors")::int AS "visitors"
             FROM (SELECT "day", count(*) AS "views", count(DISTINCT "visitor") AS "visitors"
                     FROM "analytics_events"
                    WHERE "day" BETWEEN $1::date AND $2::date AND "postId" = ANY($3::int[])
                    GROUP BY "day", "postId") d
            GROUP BY "day"`,
      site ? [rawFrom, scope.to] : raw,
    ),
    pool.query<{ source: string; visitors: number }>(
      site
        ? `SELECT "source", sum("visitors")::int AS "visitors" FROM "analytics_day_sources"
            WHERE "day" BETWEEN $1::date AND $2::date GROUP BY "source"`
        : `SELECT "source", sum("visitors")::int AS "visitors" FROM "analytics_day_post_sources"
            WHERE "day" BETWEEN $1::date AND $2::date AND "postId" = ANY($3::int[])
            GROUP BY "source"`,
      site ? [scope.from, scope.to] : range,
    ),
    // Site-wide, the visitors who came with a source are analytics_visitors' rows; the others
    // (Direct) are the rest of the day's visitors.
    pool.query<{ source: string; visitors: number }>(
      site
        ? `SELECT "source", count(*)::int AS "visitors" FROM "analytics_visitors"
            WHERE "day" BETWEEN $1::date AND $2::date GROUP BY "source"`
        : `WITH ${TAGGED_EVENTS}
           SELECT "visitorSource" AS "source", sum("visitors")::int AS "visitors"
             FROM (SELECT "visitorSource", count(DISTINCT "visitor") AS "visitors" FROM tagged
                    GROUP BY "day", "postId", "visitorSource") s
            GROUP BY "visitorSource"`,
      site ? [rawFrom, scope.to] : raw,
    ),
    pool.query<{ postId: number } & Counted>(
      `WITH figures AS (
         SELECT "postId", "views", "visitors" FROM "analytics_month_posts"
          WHERE "month" BETWEEN $4::date AND $5::date
            AND ($3::int[] IS NULL OR "postId" = ANY($3::int[]))
         UNION ALL
         SELECT "postId", "views", "visitors" FROM "analytics_day_paths"
          WHERE "day" BETWEEN $1::date AND $2::date AND "postId" IS NOT NULL
            AND ($3::int[] IS NULL OR "postId" = ANY($3::int[]))
            AND NOT ("day" >= $4::date AND "day" < $5::date + interval '1 month')
         UNION ALL
         SELECT "postId", count(*), count(DISTINCT "visitor") FROM "analytics_events"
          WHERE "day" BETWEEN $6::date AND $2::date AND "postId" IS NOT NULL
            AND ($3::int[] IS NULL OR "postId" = ANY($3::int[]))
          GROUP BY "day", "postId"
       )
       SELECT "postId", sum("views")::int AS "views", sum("visitors")::int AS "visitors"
         FROM figures GROUP BY "postId"`,
      [...range, months?.first ?? '9999-12-01', months?.last ?? '0001-01-01', rawFrom],
    ),
    pool.query<{
      postId: number | null;
      source: string;
      signups: number;
      paid: number;
      revenue: number;
    }>(
      `SELECT "postId", "source",
              count(*) FILTER (WHERE "kind" = 'signup')::int AS "signups",
              count(*) FILTER (WHERE "kind" = 'payment')::int AS "paid",
              coalesce(sum("revenueCents"), 0)::int AS "revenue"
         FROM "analytics_conversions"
        WHERE "day" BETWEEN $1::date AND $2::date
          AND ($3::int[] IS NULL OR "postId" = ANY($3::int[]))
        GROUP BY "postId", "source"`,
      range,
    ),
  ]);

  const byDay = new Map<string, Counted>();
  for (const row of [...rolledDays.rows, ...rawDays.rows]) {
    const day = byDay.get(row.date) ?? { views: 0, visitors: 0 };
    day.views += row.views;
    day.visitors += row.visitors;
    byDay.set(row.date, day);
  }
  const days = daysOf(scope.from, scope.to).map((date) => ({
    date,
    ...(byDay.get(date) ?? { views: 0, visitors: 0 }),
  }));

  const visitorsBySource = new Map<string, number>();
  const addSource = (source: string, visitors: number) =>
    visitorsBySource.set(source, (visitorsBySource.get(source) ?? 0) + visitors);
  for (const row of [...rolledSources.rows, ...rawSources.rows])
    addSource(row.source, row.visitors);
  if (site) {
    const rawVisitors = rawDays.rows.reduce((sum, row) => sum + row.visitors, 0);
    const named = rawSources.rows.reduce((sum, row) => sum + row.visitors, 0);
    if (rawVisitors > named) addSource(DIRECT_SOURCE, rawVisitors - named);
  }

  const byPost = new Map<number, { signups: number; paid: number; revenue: number }>();
  const signupsBySource = new Map<string, number>();
  let signups = 0;
  let paid = 0;
  let revenue = 0;
  for (const row of conversions.rows) {
    signups += row.signups;
    paid += row.paid;
    revenue += row.revenue;
    signupsBySource.set(row.source, (signupsBySource.get(row.source) ?? 0) + row.signups);
    if (row.postId === null) continue;
    const post = byPost.get(row.postId) ?? { signups: 0, paid: 0, revenue: 0 };
    post.signups += row.signups;
    post.paid += row.paid;
    post.revenue += row.revenue;
    byPost.set(row.postId, post);
  }
  const money = <T>(value: T): T | null => (scope.money ? value : null);
  const sources = [...visitorsBySource]
    .map(([source, visitors]) => ({
      source,
      visitors,
      signups: money(signupsBySource.get(source) ?? 0),
    }))
    .sort((a, b) => b.visitors - a.visitors || a.source.localeCompare(b.source))
    .slice(0, MAX_SOURCES);
  return {
    days,
    totals: {
      views: days.reduce((sum, row) => sum + row.views, 0),
      visitors: days.reduce((sum, row) => sum + row.visitors, 0),
      signups: money(signups),
      paidConversions: money(paid),
      revenueCents: money(revenue),
    },
    sources,
    postViews: new Map(posts.rows.map((row) => [row.postId, row])),
    conversions: byPost,
  };
}

/** GET /api/desk/analytics: the range's days, posts and sources (contract/analytics.ts). */
export async function readAnalytics(pool: pg.Pool, scope: AnalyticsScope): Promise<DeskAnalytics> {
  const [figures, tiers] = await Promise.all([
    readFigures(pool, scope),
    scope.money ? readConversionsByTier(pool, scope) : null,
  ]);
  // The posts ranked first, before their addresses are read: a year has views of every post.
  const ranked = [
    ...new Set([...figures.postViews.keys(), ...(scope.money ? figures.conversions.keys() : [])]),
  ]
    .map((id) => ({
      id,
      views: figures.postViews.get(id)?.views ?? 0,
      visitors: figures.postViews.get(id)?.visitors ?? 0,
      revenue: scope.money ? (figures.conversions.get(id)?.revenue ?? 0) : 0,
    }))
    .sort(
      (a, b) =>
        b.views - a.views || b.visitors - a.visitors || b.revenue - a.revenue || a.id - b.id,
    )
    .slice(0, MAX_POSTS);
  const addresses = await readPostAddresses(pool, {
    published: false,
    ids: ranked.map((post) => post.id),
  });
  const money = <T>(value: T): T | null => (scope.money ? value : null);
  const posts = addresses
    .map((post) => {
      const seen = figures.postViews.get(post.id);
      const converted = figures.conversions.get(post.id);
      return {
        postId: post.id,
        path: post.path,
        title: post.title,
        views: seen?.views ?? 0,
        visitors: seen?.visitors ?? 0,
        signups: money(converted?.signups ?? 0),
        paidConversions: money(converted?.paid ?? 0),
        revenueCents: money(converted?.revenue ?? 0),
      };
    })
    .sort(
      (a, b) =>
        b.views - a.views ||
        b.visitors - a.visitors ||
        (b.revenueCents ?? 0) - (a.revenueCents ?? 0) ||
        a.postId - b.postId,
    )
    .slice(0, MAX_POSTS);
  return { totals: figures.totals, days: figures.days, posts, sources: figures.sources, tiers };
}

/** One post's figures (its editor page); the caller has checked it may see them. */
export async function readPostAnalytics(
  pool: pg.Pool,
  post: { id: number; path: string; title: string },
  scope: Omit<AnalyticsScope, 'postIds'>,
) {
  const figures = await readFigures(pool, { ...scope, postIds: [post.id] });
  return {
    postId: post.id,
    path: post.path,
    title: post.title,
    totals: figures.totals,
    days: figures.days,
    sources: figures.sources,
  };
}

const dayAfter = (date: string, days: number) => {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return utcDay(at);
};
const nextDay = (date: string) => dayAfter(date, 1);

/** Every day from `from` to `to`, both included. */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = nextDay(day)) days.push(day);
  return days;
}

/** The first days of the first and the last whole month inside the range; null when none is. */
function wholeMonths(from: string, to: string): { first: string; last: string } | null {
  const first = from.endsWith('-01') ? from : `${nextMonth(from.slice(0, 7))}-01`;
  const afterTo = nextDay(to);
  const last = afterTo.endsWith('-01')
    ? `${previousMonth(afterTo.slice(0, 7))}-01`
    : `${previousMonth(to.slice(0, 7))}-01`;
  return first <= last ? { first, last } : null;
}

function nextMonth(month: string): string {
  const at = new Date(`${month}-01T00:00:00Z`);
  at.setUTCMonth(at.getUTCMonth() + 1);
  return utcDay(at).slice(0, 7);
}

function previousMonth(month: string): string {
  const at = new Date(`${month}-01T00:00:00Z`);
  at.setUTCMonth(at.getUTCMonth() - 1);
  return utcDay(at).slice(0, 7);
}
