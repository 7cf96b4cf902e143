import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from '../../lib/router';
import type { User } from '../../../../contract/api';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/session/session-context';
import { AccountScreen } from './account-screen';
import { takeReturnPath } from './return-path';

/** The token rides in the link's fragment: browsers never send it to a server or a log. */
const tokenFromAddress = () => new URLSearchParams(window.location.hash.slice(1)).get('token');

interface MailedLinkPageProps {
  title: string;
  explanation: string;
  button: string;
  busy: string;
  /** What to say when the page was opened without the link's token. */
  missing: ReactNode;
  confirm(token: string): Promise<{ user: User }>;
}

/**
 * A page a mailed link opens (/register/confirm, /sign-in/link). Opening it changes nothing: mail
 * scanners follow links. Only pressing the button POSTs the token; then the visitor, signed in,
 * goes back where they were (or to /account).
 */
export function MailedLinkPage({
  title,
  explanation,
  button,
  busy,
  missing,
  confirm,
}: MailedLinkPageProps) {
  const { setUser } = useSession();
  const navigate = useNavigate();
  const [token] = useState(tokenFromAddress);
  // Once read, out of the address bar (and of the history a shared screen could show).
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  const [problem, setProblem] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function press() {
    if (!token) return;
    setSubmitting(true);
    setProblem(null);
    try {
      const result = await confirm(token);
      setUser(result.user);
      const next = takeReturnPath() ?? paths.account;
      // The desk is a page of its own the server marks for staff: loaded, not routed to.
      if (next === paths.desk || next.startsWith(`${paths.desk}/`)) window.location.assign(next);
      else navigate(next);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : 'Could not reach the server.');
      setSubmitting(false);
    }
  }

  return (
    <AccountScreen title={title}>
      {token ? (
        <>
          <p>{explanation}</p>
          {problem && (
            <p role="alert" className="form-error">
              {problem} <Link to={paths.login}>Ask for a new link</Link>.
            </p>
          )}
          <button
            type="button"
            className="button button--accent"
            disabled={submitting}
            onClick={() => void press()}
          >
            {submitting ? busy : button}
          </button>
        </>
      ) : (
        <p>{missing}</p>
      )}
    </AccountScreen>
  );
}
