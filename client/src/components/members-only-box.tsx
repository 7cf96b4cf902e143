import type { ReactNode } from 'react';
import { Link } from '../lib/router';
import { paths } from '../config/paths';
import { useSession } from '../lib/session/session-context';
import { JoinButton } from './join-button';

/**
 * Where something is for members only (an issue, the rest of an article): what it is, then Join
 * and, for a reader not signed in, Sign in. For a member whose copy is on its way: `waiting`.
 */
export function MembersOnlyBox({
  id,
  title,
  waiting,
  children,
}: {
  /** The heading's id, which names the region. */
  id: string;
  title: string;
  /** Shown instead of the prompt (a member's copy loading, or why it did not come). */
  waiting: string | null;
  /** What is for members, in a sentence or two. */
  children: ReactNode;
}) {
  const { user, status } = useSession();
  return (
    <section className="panel newsletter-locked" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {waiting !== null ? (
        <p role="status">{waiting}</p>
      ) : (
        <>
          <p>{children}</p>
          <p className="button-row">
            <JoinButton className="button button--accent">Join</JoinButton>
            {status === 'ready' && user?.email ? null : (
              <Link className="button button--outline" to={paths.login}>
                Already a member? Sign in
              </Link>
            )}
          </p>
        </>
      )}
    </section>
  );
}
