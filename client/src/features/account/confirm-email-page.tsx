import { useEffect, useState } from 'react';
import { Link } from '../../lib/router';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api-client';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { useSession } from '../../lib/session/session-context';
import { AccountScreen } from './account-screen';
import { confirmEmailChange } from './account-api';

/** The token rides in the link's fragment: browsers never send it to a server or a log. */
const tokenFromAddress = () => new URLSearchParams(window.location.hash.slice(1)).get('token');

/**
 * /confirm-email#token=… (the link mailed to a new address). Opening it changes nothing: mail
 * scanners follow links. Only pressing Confirm does.
 */
export default function ConfirmEmailPage() {
  const siteName = useSiteName();
  useDocumentHead('Confirm your new email', `Confirm the new email of your ${siteName} account.`);
  const { refresh } = useSession();
  const [token] = useState(tokenFromAddress);
  // Once read, out of the address bar (and of the history a shared screen could show).
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function confirm() {
    if (!token) return;
    setSubmitting(true);
    setProblem(null);
    try {
      setDone((await confirmEmailChange(token)).message);
      await refresh();
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : 'Could not reach the server.');
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AccountScreen title="Confirm your new email">
      {done ? (
        <>
          <p role="status">{done}</p>
          <p>
            <Link className="button button--accent" to={paths.account}>
              Go to your account
            </Link>
          </p>
        </>
      ) : token ? (
        <>
          <p>Press Confirm to make this address your account&rsquo;s email.</p>
          {problem && (
            <p role="alert" className="form-error">
              {problem}
            </p>
          )}
          <button
            type="button"
            className="button button--accent"
            disabled={submitting}
            onClick={() => void confirm()}
          >
            {submitting ? 'Confirming…' : 'Confirm'}
          </button>
        </>
      ) : (
        <p>
          This page needs the link from the confirmation mail. Ask for a new one from{' '}
          <Link to={paths.account}>your account</Link>.
        </p>
      )}
    </AccountScreen>
  );
}
