import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from '../../lib/router';
import type { DeskMemberFilter } from '../../../../contract/desk-api';
import {
  fetchMembers,
  membersCsvUrl,
  membersGhostCsvUrl,
  newsletterCsvUrl,
  type MemberSearch,
} from './desk-api';
import { describeMembership, describeNewsletterState, formatDate } from './desk-format';
import { DeskTable } from './desk-table';
import { DeskPager } from './desk-pager';
import { fetchTiers } from './tiers-api';
import { describeError, useDeskData } from './use-desk-data';

/** The filters offered (`member`, the older name of `paid`, is read from an address as it). */
type ShownFilter = Exclude<DeskMemberFilter, 'member'>;

const FILTERS = {
  all: 'Everyone',
  paid: 'Paid members (any tier)',
  free: 'Free members',
  expired: 'Expired',
  refunded_or_disputed: 'Refunded or disputed',
  anonymous: 'Anonymous payers',
  newsletter_subscribed: 'Newsletter subscribers',
  newsletter_not_subscribed: 'Not getting the newsletter',
  newsletter_pending: 'Newsletter: confirmation pending',
  newsletter_unsubscribed: 'Newsletter: unsubscribed',
  newsletter_bouncing: 'Newsletter: bouncing',
} satisfies Record<ShownFilter, string>;

const isNewsletterFilter = (filter: string) => filter.startsWith('newsletter_');
const filterOptions = (newsletter: boolean) =>
  Object.entries(FILTERS)
    .filter(([value]) => isNewsletterFilter(value) === newsletter)
    .map(([value, label]) => (
      <option key={value} value={value}>
        {label}
      </option>
    ));

const isFilter = (value: string | null): value is ShownFilter =>
  value !== null && Object.hasOwn(FILTERS, value);
/** The filter an address names, `member` by its name now. */
const readFilter = (value: string | null): ShownFilter =>
  value === 'member' ? 'paid' : isFilter(value) ? value : 'all';

/**
 * /desk: the members list, newest first, 50 at a time. The search and filter live in the address
 * (a link to a search works, Back returns to it); pages go forward by the server's cursor and
 * back by the ones already seen.
 */
export function MembersPage() {
  const { search } = useLocation();
  // A new search (or Back to an older one) starts again from its first page.
  return <MembersList key={search} params={new URLSearchParams(search)} />;
}

// The search is the address's query: Back and Forward move between searches, and a search can be
// bookmarked or shared with another staff member.
function MembersList({ params }: { params: URLSearchParams }) {
  const navigate = useNavigate();
  const search: MemberSearch = {
    q: params.get('q') ?? '',
    filter: readFilter(params.get('filter')),
    tier: params.get('tier') ?? '',
  };
  const [draft, setDraft] = useState(search);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors.at(-1) ?? null;
  const [page] = useDeskData(
    `${search.q}|${search.filter}|${search.tier}|${after ?? ''}`,
    (signal) => fetchMembers(search, after, signal),
  );
  // Every tier, with how many hold it now: the tier filter's choices and the rows' tier names.
  const [tierList] = useDeskData('tiers', fetchTiers);
  const tiers = tierList.state === 'ready' ? tierList.data.tiers : [];
  const tierName = (slug: string) => tiers.find((tier) => tier.slug === slug)?.name ?? slug;

  function submit(event: FormEvent) {
    event.preventDefault();
    const next = new URLSearchParams();
    if (draft.q.trim()) next.set('q', draft.q.trim());
    if (draft.filter !== 'all') next.set('filter', draft.filter);
    if (draft.tier) next.set('tier', draft.tier);
    setCursors([null]);
    const query = next.toString();
    void navigate({ search: query ? `?${query}` : '' });
  }

  return (
    <section aria-labelledby="members-title">
      <div className="desk__heading">
        <h1 id="members-title">Members</h1>
        <p className="button-row desk__exports">
          <a className="button button--outline" href={membersCsvUrl(search)} download>
            Export CSV
          </a>
          <a className="button button--outline" href={newsletterCsvUrl} download>
            Newsletter subscribers CSV
          </a>
          <a className="button button--outline" href={membersGhostCsvUrl} download>
            All members, Ghost CSV
          </a>
        </p>
      </div>
      <form className="desk-search" onSubmit={submit} role="search">
        <label className="desk-field desk-search__q">
          <span>Email, user id or Stripe id</span>
          <input
            type="search"
            value={draft.q}
            onChange={(event) => setDraft({ ...draft, q: event.target.value })}
            placeholder="jo@example.com, cus_…, a user id"
            autoComplete="off"
            spellCheck={false}
          />
        </label>
        <label className="desk-field">
          <span>Show</span>
          <select
            value={draft.filter}
            onChange={(event) => setDraft({ ...draft, filter: event.target.value as ShownFilter })}
          >
            {filterOptions(false)}
            <optgroup label="Newsletter">{filterOptions(true)}</optgroup>
          </select>
        </label>
        {tiers.length > 1 && (
          <label className="desk-field">
            <span>Tier</span>
            <select
              value={draft.tier}
              onChange={(event) => setDraft({ ...draft, tier: event.target.value })}
            >
              <option value="">Any tier</option>
              {tiers.map((tier) => (
                <option key={tier.slug} value={tier.slug}>
                  {tier.name} ({tier.members} now)
                </option>
              ))}
            </select>
          </label>
        )}
        <button className="button">Search</button>
      </form>

      {page.state === 'error' && <p role="alert">{describeError(page.error)}</p>}
      {page.state === 'loading' && <p className="desk__loading">Loading…</p>}
      {page.state === 'ready' && (
        <>
          {page.data.members.length === 0 ? (
            <p>No one matches.</p>
          ) : (
            <DeskTable
              cards
              caption={cursors.length > 1 ? `Members, page ${cursors.length}` : 'Members'}
              captionHidden
              columns={['Member', 'Membership', 'Tier', 'Joined', 'Stripe customer', 'Newsletter']}
            >
              {page.data.members.map((member) => (
                <tr key={member.id}>
                  <td data-label="Member">
                    <Link to={`/desk/members/${member.id}`}>
                      {member.email ?? 'Anonymous payer'}
                    </Link>
                    <span className="desk__id">{member.id}</span>
                  </td>
                  <td data-label="Membership">
                    <span className={member.isMember ? 'desk-badge desk-badge--on' : 'desk-badge'}>
                      {member.isMember ? 'Member' : member.membership ? 'Lapsed' : 'Reader'}
                    </span>{' '}
                    {describeMembership(member.membership, member.isMember)}
                  </td>
                  <td data-label="Tier">{member.tier ? tierName(member.tier) : '—'}</td>
                  <td data-label="Joined">{formatDate(member.createdAt)}</td>
                  <td data-label="Stripe customer" className="desk__mono">
                    {member.customerIds.join(', ') || '—'}
                  </td>
                  <td data-label="Newsletter">{describeNewsletterState(member.newsletter)}</td>
                </tr>
              ))}
            </DeskTable>
          )}
          <DeskPager cursors={cursors} next={page.data.next} onCursors={setCursors} />
        </>
      )}
    </section>
  );
}
