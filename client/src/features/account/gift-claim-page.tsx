import { useEffect, useState } from 'react';
import type { User } from '../../../../contract/api';
import type { GiftPreview } from '../../../../contract/gifts';
import { PageMasthead } from '../../components/page-masthead';
import { paths } from '../../config/paths';
import { ApiError, describeFailure } from '../../lib/api-client';
import { useDocumentHead } from '../../lib/document-head';
import { formatDate } from '../../lib/format-date';
import { Link } from '../../lib/router';
import { useSession } from '../../lib/session/session-context';
import { useSiteName } from '../../lib/site-name';
import { claimGift, previewGift } from './account-api';
import { rememberReturnPath } from './return-path';
import './account.css';
import '../../components/form-field.css';
import './gift-claim.css';

/**
 * The link's token, from the fragment (never sent to a server or a log), kept in this browser
 * until the gift is claimed: signing in or registering on the way (through a mailed link, maybe
 * in another tab) comes back here without the mail.
 */
const STORED_TOKEN = 'cohort-gift-token';

function readToken(): string | null {
  const fromLink = new URLSearchParams(window.location.hash.slice(1)).get('token');
  try {
    if (fromLink) localStorage.setItem(STORED_TOKEN, fromLink);
    return fromLink ?? localStorage.getItem(STORED_TOKEN);
  } catch {
    return fromLink; // storage refused (private mode): the mail's link still works
  }
}

function forgetToken(): void {
  try {
    localStorage.removeItem(STORED_TOKEN);
  } catch {
    // nothing kept
  }
}

type Loaded =
  | { kind: 'loading' }
  | { kind: 'ready'; preview: GiftPreview }
  | { kind: 'problem'; message: string };

/** /gift/claim: the recipient's page. Opening it changes nothing; the button claims the year. */
export default function GiftClaimPage() {
  const siteName = useSiteName();
  useDocumentHead('Your gift', `Claim the year of ${siteName} someone gave you.`);
  const { user, status, setUser } = useSession();
  const [token] = useState(readToken);
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [claimed, setClaimed] = useState<User | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Once read, out of the address bar (and of the history a shared screen could show).
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  useEffect(() => {
    if (!token || status !== 'ready') return;
    const controller = new AbortController();
    previewGift(token, controller.signal).then(
      (preview) => setLoaded({ kind: 'ready', preview }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status !== 503) forgetToken();
        setLoaded({
          kind: 'problem',
          message: describeFailure(error),
        });
      },
    );
    return () => controller.abort();
  }, [token, status, user?.id]);

  async function claim() {
    if (!token) return;
    setBusy(true);
    setProblem(null);
    try {
      const answer = await claimGift(token);
      forgetToken();
      setUser(answer.user);
      setClaimed(answer.user);
    } catch (error) {
      setProblem(describeFailure(error));
      setBusy(false);
    }
  }

  const signedIn = Boolean(user?.email);
  const preview = loaded.kind === 'ready' ? loaded.preview : null;
  const from = preview?.fromName ?? 'Someone';
  const until = (claimed ?? user)?.membership?.expiresAt;

  return (
    <>
      <PageMasthead
        eyebrow="Gift"
        title={preview ? `${from} gave you a year of ${siteName}` : 'Your gift'}
      />
      <div className="page-body account-screen gift">
        {!token ? (
          <p>
            Open this page from the link in the mail that told you of your gift: the link holds what
            proves the gift is yours.
          </p>
        ) : loaded.kind === 'problem' ? (
          <p role="alert" className="form-error">
            {loaded.message}
          </p>
        ) : !preview ? (
          <p className="gift__loading">Looking for your gift…</p>
        ) : claimed || preview.claimedByYou ? (
          <div className="panel gift__done" role="status">
            <p>
              <strong>The year is yours.</strong>{' '}
              {until && `Your membership runs until ${formatDate(until)}.`}
            </p>
            <p>
              <Link to={paths.home}>Start reading</Link> ·{' '}
              <Link to={paths.account}>Your account</Link>
            </p>
          </div>
        ) : preview.state === 'claimed' ? (
          <p role="alert" className="form-error">
            This gift was claimed already, from another account.{' '}
            <Link to={paths.login}>Sign in with that account</Link>.
          </p>
        ) : (
          <div className="panel">
            {preview.message && (
              <blockquote className="gift__message">
                <p>{preview.message}</p>
                <footer>{from}</footer>
              </blockquote>
            )}
            <p>
              A year of membership: every article, campaign and course of {siteName}. It starts when
              you claim it, after any membership you already have.
            </p>
            {problem && (
              <p role="alert" className="form-error">
                {problem}
              </p>
            )}
            {signedIn ? (
              <>
                <button
                  type="button"
                  className="button button--accent"
                  disabled={busy}
                  onClick={() => void claim()}
                >
                  {busy ? 'Claiming…' : 'Claim your year'}
                </button>
                <p className="field__hint">It goes to your account, {user?.email}.</p>
              </>
            ) : (
              <>
                <p>Sign in, or create an account, to claim it: the year is kept on your account.</p>
                <p className="gift__actions">
                  <Link
                    className="button button--accent"
                    to={paths.register}
                    state={{ from: paths.giftClaim }}
                    onClick={() => rememberReturnPath(paths.giftClaim)}
                  >
                    Create an account
                  </Link>
                  <Link
                    className="button"
                    to={paths.login}
                    state={{ from: paths.giftClaim }}
                    onClick={() => rememberReturnPath(paths.giftClaim)}
                  >
                    Sign in
                  </Link>
                </p>
              </>
            )}
          </div>
        )}
      </div>
    </>
  );
}
