import type { ReactNode } from 'react';
import { unlockLabel } from '../../../contract/reading';
import type { PostLock } from '../../../contract/site-data';
import { Link } from '../lib/router';
import { paths } from '../config/paths';
import { useSession } from '../lib/session/session-context';
import { JoinButton } from './join-button';
import { RegisterOrSignIn } from './register-or-sign-in';
import './members-only-box.css';

/**
 * Where something is not for every reader (an issue, the rest of an article): what unlocks it
 * (`lock`, contract/reading.ts: "Available on Founder"), what it is, then what to do. For a post
 * for signed-in readers, signing up or in; for members, Join (offering the tiers that unlock it)
 * and, for a reader not signed in, Sign in. For a reader whose copy is on its way: `waiting`.
 */
export function MembersOnlyBox({
  id,
  title,
  waiting,
  lock,
  children,
}: {
  /** The heading's id, which names the region. */
  id: string;
  title: string;
  /** Shown instead of the prompt (a member's copy loading, or why it did not come). */
  waiting: string | null;
  /** Who may read it and the tiers that unlock it; members of any tier when left out. */
  lock?: PostLock | undefined;
  /** What is for members, in a sentence or two. */
  children: ReactNode;
}) {
  const { user, status } = useSession();
  const signedIn = status === 'ready' && Boolean(user?.email);
  const registered = lock?.rule.visibility === 'registered';
  const tiers = lock && lock.tiers.length > 0 ? lock.tiers.map((tier) => tier.slug) : undefined;
  return (
    <section className="panel newsletter-locked" aria-labelledby={id}>
      {lock && (
        <p className="members-only-box__unlock">
          <span className="members-badge">{unlockLabel(lock.rule, lock.tiers)}</span>
        </p>
      )}
      <h2 id={id}>{title}</h2>
      {waiting !== null ? (
        <p role="status">{waiting}</p>
      ) : (
        <>
          <p>{children}</p>
          {registered ? (
            signedIn ? (
              // Signed in, and still not let in: their address is not proven yet.
              <p>Confirm your address with the link we mailed you, then come back to read on.</p>
            ) : (
              <RegisterOrSignIn register="Sign up free" />
            )
          ) : (
            <p className="button-row">
              <JoinButton className="button button--accent" {...(tiers && { tiers })}>
                Join
              </JoinButton>
              {signedIn ? null : (
                <Link className="button button--outline" to={paths.login}>
                  Already a member? Sign in
                </Link>
              )}
            </p>
          )}
        </>
      )}
    </section>
  );
}
