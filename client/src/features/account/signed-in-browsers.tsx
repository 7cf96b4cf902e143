import type { SignInMethod } from '../../../../contract/sign-in-methods';
import { useState } from 'react';
import type { AccountSession } from '../../../../contract/api';
import { describeFailure } from '../../lib/api-client';
import { formatDate } from '../../lib/format-date';
import { useLoadOnMount } from '../../lib/use-load-on-mount';
import { useRequest } from '../../lib/use-request';
import { endOtherSessions, endSession, listSessions } from './account-api';

/** How a browser signed in, as /account says it ("Signed in 3 May with a password"). */
const SIGN_IN_METHOD_WORDS: Record<SignInMethod, string> = {
  password: 'a password',
  link: 'a link from an email',
  code: 'a code from an email',
  passkey: 'a passkey',
};

/** The browsers signed in to the account, each with a way to sign it out. */
export function SignedInBrowsers() {
  const [sessions, setSessions] = useState<AccountSession[] | null>(null);
  const { problem, setProblem, busy, run: request } = useRequest();

  useLoadOnMount(
    listSessions,
    (answer) => setSessions(answer.sessions),
    (error) => setProblem(describeFailure(error, 'Could not load your sessions.')),
  );

  const run = (action: () => Promise<{ sessions: AccountSession[] }>) =>
    request(action, (answer) => setSessions(answer.sessions));

  if (!sessions && !problem) return null;
  const others = sessions?.filter((session) => !session.current) ?? [];
  return (
    <section className="panel" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Signed-in browsers</h2>
      <ul className="sessions">
        {sessions?.map((session) => (
          <li key={session.id} className="session">
            <span className="session__what">
              {session.browser ?? 'Unknown browser'}
              {session.current && <strong> (this browser)</strong>}
            </span>
            <span className="session__when">
              Signed in {formatDate(session.createdAt)}
              {session.signInMethod && ` with ${SIGN_IN_METHOD_WORDS[session.signInMethod]}`}, last
              seen {formatDate(session.lastSeenAt)}
            </span>
            {!session.current && (
              <button
                type="button"
                className="button button--outline session__end"
                disabled={busy}
                onClick={() => void run(() => endSession(session.id))}
              >
                Sign out
              </button>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <p>
          <button
            type="button"
            className="button button--outline"
            disabled={busy}
            onClick={() => void run(endOtherSessions)}
          >
            Sign out everywhere else
          </button>
        </p>
      )}
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
    </section>
  );
}
