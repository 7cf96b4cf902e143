import { Link } from '../../lib/router';
import { isPerkLive, PERK_CATEGORIES } from '../../../../contract/perks';
import { JoinButton } from '../../components/join-button';
import { PageMasthead } from '../../components/page-masthead';
import { paths } from '../../config/paths';
import { useDocumentHead } from '../../lib/document-head';
import { useSession } from '../../lib/session/session-context';
import { PerkCard } from './perk-card';
import { useSiteData } from '../../lib/site-data';
import './perks.css';

const DESCRIPTION = 'Offers from partner businesses, for members.';

/** /perks: every partner's offer, by category; how to redeem them, for members. */
export default function PerksPage() {
  useDocumentHead('Member perks', DESCRIPTION);
  const { user, status } = useSession();
  const isMember = user?.isSubscribed === true;
  const { perks = [] } = useSiteData();
  const live = perks.filter((perk) => isPerkLive(perk));

  return (
    <>
      <PageMasthead eyebrow="For members" title="Member perks" lede={DESCRIPTION} />
      <div className="page-body perks">
        {/* One note in the same place for everyone, so nothing moves once the session is known. */}
        {isMember ? (
          <section className="panel perks__join" aria-labelledby="perks-join-title">
            <h2 id="perks-join-title">Your perks</h2>
            <p>
              You are a member: each offer below shows how to redeem it, and your code is yours to
              keep. Codes are for you alone; please don&rsquo;t share them.
            </p>
            <p className="button-row">
              <Link className="button button--outline" to={paths.account}>
                Your membership
              </Link>
            </p>
          </section>
        ) : (
          <section className="panel perks__join" aria-labelledby="perks-join-title">
            <h2 id="perks-join-title">Members only</h2>
            <p>
              Everyone can see the offers. Members get the codes and links that redeem them, for as
              long as their membership lasts.
            </p>
            <p className="button-row">
              <JoinButton className="button button--accent">Join</JoinButton>
              {status === 'ready' && user?.email ? null : (
                <Link className="button button--outline" to={paths.login}>
                  Already a member? Sign in
                </Link>
              )}
            </p>
          </section>
        )}
        {PERK_CATEGORIES.map((category) => {
          const inCategory = live.filter((perk) => perk.category === category);
          if (inCategory.length === 0) return null;
          const headingId = `perks-${category.toLowerCase().replace(/\s+/g, '-')}`;
          return (
            <section key={category} className="perks__category" aria-labelledby={headingId}>
              <h2 id={headingId}>{category}</h2>
              <ul className="perks__list">
                {inCategory.map((perk) => (
                  <li key={perk.id}>
                    <PerkCard perk={perk} isMember={isMember} />
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
        {live.length === 0 && <p>There are no offers right now. Check back soon.</p>}
      </div>
    </>
  );
}
