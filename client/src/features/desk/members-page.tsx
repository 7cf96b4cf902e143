import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from '../../lib/router';
import type { DeskMemberFilter } from '../../../../contract/desk-api';
import { fetchMembers, membersCsvUrl, newsletterCsvUrl, type MemberSearch } from './desk-api';
import { describeMembership, describeNewsletterState, formatDate } from './desk-format';
import { DeskTable } from './desk-table';
import { DeskPager } from './desk-pager';
import { describeError, useDeskData } from './use-desk-data';

const FILTERS = {
  all: 'Everyone',
  member: 'Members now',
  expired: 'Expired',
  refunded_or_disputed: 'Refunded or disputed',
  anonymous: 'Anonymous payers',
  newsletter_subscribed: 'Newsletter subscribers',
  newsletter_not_subscribed: 'Not getting the newsletter',
  newsletter_pending: 'Newsletter: confirmation pending',
  newsletter_unsubscribed: 'Newsletter: unsubscribed',
  newsletter_bouncing: 'Newsletter: bouncing',
} satisfies Record<DeskMemberFilter, string>;

const isNewsletterFilter = (filter: string) => filter.startsWith('newsletter_');
const filterOptions = (newsletter: boolean) =>
  Object.entries(FILTERS)
    .filter(([value]) => isNewsletterFilter(value) === newsletter)
    .map(([value, label]) => (
      <option key={value} value={value}>
        {label}
      </option>
    ));

const isFilter = (value: string | null): value is DeskMemberFilter =>
  value !== null && Object.hasOwn(FILTERS, value);

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
  const filterParam = params.get('filter');
  const search: MemberSearch = {
    q: params.get('q') ?? '',
    filter: isFilter(filterParam) ? filterParam : 'all',
  };
  const [draft, setDraft] = useState(search);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors.at(-1) ?? null;
  const [page] = useDeskData(`${search.q}|${search.filter}|${after ?? ''}`, (signal) =>
    fetchMembers(search, after, signal),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const next = new URLSearchParams();
    if (draft.q.trim()) next.set('q', draft.q.trim());
    if (draft.filter !== 'all') next.set('filter', draft.filter);
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
            onChange={(event) =>
              setDraft({ ...draft, filter: event.target.value as DeskMemberFilter })
            }
          >
            {filterOptions(false)}
            <optgroup label="Newsletter">{filterOptions(true)}</optgroup>
          </select>
        </label>
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
              columns={['Member', 'Membership', 'Joined', 'Stripe customer', 'Newsletter']}
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
