import { useMemo } from 'react';
import type { DeskDashboard } from '../../../../contract/desk-api';
import { fetchDashboard } from './desk-api';
import { DeskTable } from './desk-table';
import { formatDateTime, formatMoney, formatMonth, formatWeek } from './desk-format';
import { FlowChart } from './flow-chart';
import { SampleContentPanel } from './sample-content-panel';
import { describeError, useDeskData } from './use-desk-data';

const GREEN = '#0f6b52';
const RED = '#b3261e';
const BLUE = '#1f4fd1';

/** /desk/dashboard: what earns, from the ledger, as charts and the same numbers in tables. */
export default function DashboardPage() {
  const [dashboard] = useDeskData('dashboard', (signal) => fetchDashboard(signal));
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title">Dashboard</h1>
      <SampleContentPanel />
      {dashboard.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {dashboard.state === 'error' && <p role="alert">{describeError(dashboard.error)}</p>}
      {dashboard.state === 'ready' && <Figures dashboard={dashboard.data} />}
    </section>
  );
}

function Figures({ dashboard }: { dashboard: DeskDashboard }) {
  const { activeByPlan, currency, newsletter } = dashboard;
  const money = (cents: number) => formatMoney(cents, currency);
  const weeks = useMemo(
    () => ({
      labels: dashboard.weeks.map((week) => formatWeek(week.start)),
      gained: { label: 'New', values: dashboard.weeks.map((w) => w.newMembers), color: GREEN },
      lost: { label: 'Lost', values: dashboard.weeks.map((w) => w.lostMembers), color: RED },
    }),
    [dashboard],
  );
  const months = useMemo(
    () => ({
      labels: dashboard.months.map((month) => formatMonth(month.start).replace(/ \d{4}$/, '')),
      gained: {
        label: 'Revenue',
        values: dashboard.months.map((m) => m.revenueCents / 100),
        color: BLUE,
      },
      lost: {
        label: 'Refunds and lost disputes',
        values: dashboard.months.map((m) => (m.refundedCents + m.disputeLostCents) / 100),
        color: RED,
      },
    }),
    [dashboard],
  );
  const weeksTotal = dashboard.weeks.reduce(
    (sum, week) => ({ gained: sum.gained + week.newMembers, lost: sum.lost + week.lostMembers }),
    { gained: 0, lost: 0 },
  );
  const revenue = dashboard.months.reduce((sum, month) => sum + month.revenueCents, 0);

  return (
    <>
      <p className="desk__lede">
        From the ledger, in {currency.toUpperCase()}, as of {formatDateTime(dashboard.generatedAt)}.
      </p>
      <ul className="desk-figures" aria-label="Members now">
        <li>
          <strong>{activeByPlan.total}</strong> members now
        </li>
        <li>
          <strong>{activeByPlan.subscription}</strong> by subscription ({activeByPlan.monthly}{' '}
          monthly, {activeByPlan.yearly} yearly)
        </li>
        <li>
          <strong>{activeByPlan.oneTime}</strong> by a year paid once or given
        </li>
        <li>
          <strong>{activeByPlan.comp}</strong> on a comp
        </li>
      </ul>

      <section className="desk-section" aria-labelledby="weekly-title">
        <h2 id="weekly-title">New and lost members per week</h2>
        <FlowChart
          {...weeks}
          summary={`Over the last ${dashboard.weeks.length} weeks, ${weeksTotal.gained} members joined or came back and ${weeksTotal.lost} left.`}
          formatValue={(value) => String(Math.round(value))}
          wholeNumbers
        />
        <DeskTable
          numbers
          caption="Weeks from Monday (UTC)"
          columns={['Week of', 'New', 'Lost', 'Members at its end']}
        >
          {dashboard.weeks.map((week) => (
            <tr key={week.start}>
              <th scope="row">{formatWeek(week.start)}</th>
              <td>{week.newMembers}</td>
              <td>{week.lostMembers}</td>
              <td>{week.members}</td>
            </tr>
          ))}
        </DeskTable>
      </section>

      <section className="desk-section" aria-labelledby="monthly-title">
        <h2 id="monthly-title">Revenue and refunds per month</h2>
        <FlowChart
          {...months}
          summary={`Over the last ${dashboard.months.length} months, ${money(revenue)} was paid.`}
          formatValue={(value) => money(Math.round(value * 100)).replace(/\.00$/, '')}
        />
        <DeskTable
          numbers
          caption="Calendar months (UTC)"
          columns={[
            'Month',
            'Payments',
            'Revenue',
            'One-time',
            'Monthly',
            'Yearly',
            'Gifts',
            'Seats',
            'Refunded',
            'Lost in disputes',
          ]}
        >
          {dashboard.months.map((month) => (
            <tr key={month.start}>
              <th scope="row">{formatMonth(month.start)}</th>
              <td>{month.payments}</td>
              <td>{money(month.revenueCents)}</td>
              <td>{money(month.revenueByPlan.oneTime)}</td>
              <td>{money(month.revenueByPlan.monthly)}</td>
              <td>{money(month.revenueByPlan.yearly)}</td>
              <td>{money(month.revenueByPlan.gift)}</td>
              <td>{money(month.revenueByPlan.seats)}</td>
              <td>{money(month.refundedCents)}</td>
              <td>{money(month.disputeLostCents)}</td>
            </tr>
          ))}
        </DeskTable>
        {dashboard.otherCurrencies.length > 0 && (
          <p className="desk__note">
            Not counted above, paid in other currencies:{' '}
            {dashboard.otherCurrencies
              .map((other) => `${other.payments} in ${other.currency.toUpperCase()}`)
              .join(', ')}
            .
          </p>
        )}
      </section>

      {dashboard.tiers.length > 1 && (
        <section className="desk-section" aria-labelledby="tiers-title">
          <h2 id="tiers-title">By tier</h2>
          <DeskTable
            numbers
            caption="Members now, and what was paid for each tier (refunds not taken off)"
            columns={[
              'Tier',
              'Members now',
              'This month',
              `Last ${dashboard.months.length} months`,
            ]}
          >
            {dashboard.tiers.map((tier) => (
              <tr key={tier.slug}>
                <th scope="row">{tier.name}</th>
                <td>{tier.members}</td>
                <td>{money(tier.monthCents)}</td>
                <td>{money(tier.yearCents)}</td>
              </tr>
            ))}
          </DeskTable>
        </section>
      )}

      <section className="desk-section" aria-labelledby="newsletter-title">
        <h2 id="newsletter-title">Newsletter</h2>
        <ul className="desk-figures" aria-label="Newsletter now">
          <li>
            <strong>{newsletter.confirmed}</strong> subscribers
          </li>
          <li>
            <strong>{newsletter.confirmedMembers}</strong> of them members now
          </li>
        </ul>
        <DeskTable
          numbers
          caption="Addresses on the list, by state"
          columns={['State', 'Addresses']}
        >
          <tr>
            <th scope="row">Subscribed (confirmed)</th>
            <td>{newsletter.confirmed}</td>
          </tr>
          <tr>
            <th scope="row">Confirmation pending</th>
            <td>{newsletter.pending}</td>
          </tr>
          <tr>
            <th scope="row">Unsubscribed</th>
            <td>{newsletter.unsubscribed}</td>
          </tr>
          <tr>
            <th scope="row">Bouncing (mail to it fails)</th>
            <td>{newsletter.bouncing}</td>
          </tr>
        </DeskTable>
      </section>

      {dashboard.offers.length > 0 && (
        <section className="desk-section" aria-labelledby="offers-title">
          <h2 id="offers-title">Offers</h2>
          <DeskTable
            numbers
            caption="Payments that redeemed each offer, and what they brought"
            columns={['Code', 'Redemptions', 'Revenue']}
          >
            {dashboard.offers.map((offer) => (
              <tr key={offer.code}>
                <th scope="row">{offer.code}</th>
                <td>{offer.redemptions}</td>
                <td>{money(offer.revenueCents)}</td>
              </tr>
            ))}
          </DeskTable>
        </section>
      )}

      <section className="desk-section" aria-labelledby="perks-title">
        <h2 id="perks-title">Perk claims</h2>
        {dashboard.perks.length === 0 ? (
          <p className="desk__empty">No perk claimed yet.</p>
        ) : (
          <DeskTable numbers columns={['Perk', 'Claims', 'Last 30 days']}>
            {dashboard.perks.map((perk) => (
              <tr key={perk.perkId}>
                <th scope="row">{perk.title}</th>
                <td>{perk.claims}</td>
                <td>{perk.last30Days}</td>
              </tr>
            ))}
          </DeskTable>
        )}
      </section>
    </>
  );
}
