import type { AnalyticsDay, AnalyticsTotals, DeskAnalytics } from '../../../../contract/analytics';
import type { DeskStaff } from '../../../../contract/desk-api';
import { Link, useSearchParams } from '../../lib/router';
import analyticsCss from './analytics-page.css?inline';
import { ANALYTICS_RANGES, fetchAnalytics, rangeDates, type AnalyticsRange } from './analytics-api';
import { formatMoney, formatShortDate } from './desk-format';
import { DeskTable } from './desk-table';
import { describeError, useDeskData } from './use-desk-data';
import { ViewsChart } from './views-chart';

const RANGE_LABELS: Record<AnalyticsRange, string> = {
  7: '7 days',
  30: '30 days',
  90: '90 days',
  365: 'A year',
};

const readRange = (value: string | null): AnalyticsRange =>
  ANALYTICS_RANGES.find((range) => String(range) === value) ?? 30;

const number = (n: number) => n.toLocaleString('en-US');

/**
 * /desk/analytics (docs/analytics.md): views and visitors by day over a chosen range (in the
 * address, `?range=30`), the totals, the posts ranked by views and the sources. Owners and
 * editors see the whole site with signups, paid conversions and revenue; writers their own posts,
 * without money (the API leaves those figures null for them).
 */
export default function AnalyticsPage({ staff }: { staff: DeskStaff }) {
  const [search] = useSearchParams();
  const range = readRange(search.get('range'));
  const [analytics] = useDeskData(`analytics-${range}`, (signal) => fetchAnalytics(range, signal));
  const { from, to } = rangeDates(range);
  return (
    <section aria-labelledby="analytics-title" className="desk-analytics">
      <style>{analyticsCss}</style>
      <h1 id="analytics-title">Analytics</h1>
      <nav className="desk-analytics__ranges" aria-label="Range">
        {ANALYTICS_RANGES.map((choice) => (
          <Link
            key={choice}
            to={`/desk/analytics?range=${choice}`}
            aria-current={choice === range ? 'page' : undefined}
          >
            {RANGE_LABELS[choice]}
          </Link>
        ))}
      </nav>
      <p className="desk__lede">
        {staff.role === 'writer' ? 'Your posts, from ' : 'From '}
        {formatShortDate(from)} to {formatShortDate(to)} (UTC). Counted on this site, with no cookie
        and no IP address kept.
      </p>
      {analytics.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {analytics.state === 'error' && <p role="alert">{describeError(analytics.error)}</p>}
      {analytics.state === 'ready' && (
        <Figures analytics={analytics.data} range={range} currency={staff.currency} />
      )}
    </section>
  );
}

function Figures({
  analytics,
  range,
  currency,
}: {
  analytics: DeskAnalytics;
  range: AnalyticsRange;
  currency: string;
}) {
  const { totals, days, posts, sources } = analytics;
  const money = totals.revenueCents !== null;
  const conversions = totals.signups !== null;
  if (totals.views === 0) {
    return (
      <p className="desk-analytics__empty">
        No views counted in {range === 365 ? 'the last year' : `these ${range} days`}. Each page a
        reader opens is counted as it opens; the figures show here within a few seconds.
        {range < 365 && ' Try a longer range.'}
      </p>
    );
  }
  return (
    <>
      <Totals totals={totals} currency={currency} />
      <section className="desk-section" aria-labelledby="by-day-title">
        <h2 id="by-day-title">Views and visitors by day</h2>
        <ViewsChart days={days} summary={summaryOf(days, totals)} />
        <DaysTable days={days} />
      </section>

      <section className="desk-section" aria-labelledby="posts-title">
        <h2 id="posts-title">Posts</h2>
        {posts.length === 0 ? (
          <p>No post was read in this range.</p>
        ) : (
          <DeskTable
            numbers
            cards
            caption="Ranked by views"
            columns={[
              'Post',
              'Views',
              'Visitors',
              conversions && 'Signups',
              conversions && 'Paid conversions',
              money && 'Revenue',
            ]}
          >
            {posts.map((post) => (
              <tr key={post.postId}>
                <th scope="row">
                  <Link to={`/desk/posts/${post.postId}`}>{post.title}</Link>
                  <span className="desk-analytics__path">{post.path}</span>
                </th>
                <td data-label="Views">{number(post.views)}</td>
                <td data-label="Visitors">{number(post.visitors)}</td>
                {conversions && <td data-label="Signups">{number(post.signups ?? 0)}</td>}
                {conversions && (
                  <td data-label="Paid conversions">{number(post.paidConversions ?? 0)}</td>
                )}
                {money && (
                  <td data-label="Revenue">{formatMoney(post.revenueCents ?? 0, currency)}</td>
                )}
              </tr>
            ))}
          </DeskTable>
        )}
      </section>

      {analytics.tiers && analytics.tiers.length > 1 && (
        <section className="desk-section" aria-labelledby="tiers-title">
          <h2 id="tiers-title">Paid conversions by tier</h2>
          <DeskTable
            numbers
            caption="By the tier each payment was for"
            columns={['Tier', 'Paid conversions', 'Revenue']}
          >
            {analytics.tiers.map((tier) => (
              <tr key={tier.slug}>
                <th scope="row">{tier.name}</th>
                <td>{number(tier.paidConversions)}</td>
                <td>{formatMoney(tier.revenueCents, currency)}</td>
              </tr>
            ))}
          </DeskTable>
        </section>
      )}

      <section className="desk-section" aria-labelledby="sources-title">
        <h2 id="sources-title">Sources</h2>
        <p className="desk__small">
          Named by a link’s <code>?ref=</code> or <code>utm_source</code>, else by the site the
          reader came from; “Direct” when neither says.
        </p>
        <DeskTable
          numbers
          cards
          caption="Ranked by visitors"
          columns={['Source', 'Visitors', conversions && 'Signups']}
        >
          {sources.map((source) => (
            <tr key={source.source}>
              <th scope="row">{source.source}</th>
              <td data-label="Visitors">{number(source.visitors)}</td>
              {conversions && <td data-label="Signups">{number(source.signups ?? 0)}</td>}
            </tr>
          ))}
        </DeskTable>
      </section>
    </>
  );
}

function Totals({ totals, currency }: { totals: AnalyticsTotals; currency: string }) {
  return (
    <ul className="desk-figures" aria-label="Totals">
      <li>
        <strong>{number(totals.views)}</strong> views
      </li>
      <li>
        <strong>{number(totals.visitors)}</strong> visitors
      </li>
      {totals.signups !== null && (
        <li>
          <strong>{number(totals.signups)}</strong> signups
        </li>
      )}
      {totals.paidConversions !== null && (
        <li>
          <strong>{number(totals.paidConversions)}</strong> paid conversions
        </li>
      )}
      {totals.revenueCents !== null && (
        <li>
          <strong>{formatMoney(totals.revenueCents, currency)}</strong> revenue
        </li>
      )}
    </ul>
  );
}

/** What the chart shows, in one sentence: its accessible name. */
function summaryOf(days: AnalyticsDay[], totals: AnalyticsTotals): string {
  const busiest = days.reduce<AnalyticsDay | null>(
    (best, day) => (best === null || day.views > best.views ? day : best),
    null,
  );
  const peak = busiest
    ? ` The busiest day was ${formatShortDate(busiest.date)}, with ${number(busiest.views)} views.`
    : '';
  return `Over ${days.length} days, ${number(totals.views)} views by ${number(totals.visitors)} visitors.${peak}`;
}

/**
 * The chart's figures for screen readers: a table only they are given (in a hidden box: a table
 * itself keeps its height whatever it is told).
 */
function DaysTable({ days }: { days: AnalyticsDay[] }) {
  return (
    <div className="visually-hidden">
      <table>
        <caption>Views and visitors by day (UTC)</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Views</th>
            <th scope="col">Visitors</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{formatShortDate(day.date)}</th>
              <td>{number(day.views)}</td>
              <td>{number(day.visitors)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
