import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from '../../lib/router';
import { paths } from '../../config/paths';
import { AccountScreen } from './account-screen';
import { EmailField, FormError } from '../../components/form-field';
import { RegisterOrSignIn } from '../../components/register-or-sign-in';
import { PasswordField } from './fields';
import { SignedInBrowsers } from './signed-in-browsers';
import { PodcastFeeds } from './podcast-feeds';
import { MembershipPanel } from './membership-panel';
import { ApiError, describeFailure } from '../../lib/api-client';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { useSession } from '../../lib/session/session-context';
import type { RecentSignIn } from '../../../../contract/api';
import {
  changeEmail,
  changePassword,
  deleteAccount,
  getRecentSignIn,
  requestSignInLink,
  signOut,
} from './account-api';
import { rememberReturnPath } from './return-path';
import { useFormSubmit } from './use-form-submit';
import { emailProblem, newPasswordProblem } from './validation';

// Loaded after the page: the passkey code never rides in the app's first load.
const Passkeys = lazy(() => import('./passkeys'));

/**
 * /account: the membership, billing, a member's podcast feeds, sign out, and the account's email,
 * password and deletion.
 * `newsletter` is the newsletter feature's section, handed in by the app (features stay apart).
 */
export default function AccountPage({ newsletter }: { newsletter?: ReactNode }) {
  const siteName = useSiteName();
  useDocumentHead('Your account', `Your ${siteName} membership and account settings.`);
  const { user, status } = useSession();
  if (status !== 'ready' || !user)
    return <AccountScreen title="Your account">{null}</AccountScreen>;
  if (!user.email) {
    return (
      <AccountScreen title="Your account">
        <p>
          {user.isSubscribed
            ? 'Your membership lives on this device only. Create an account to keep it everywhere.'
            : 'Create an account, or sign in to the one you have.'}
        </p>
        <RegisterOrSignIn register="Create an account" />
      </AccountScreen>
    );
  }
  return (
    <AccountScreen title="Your account">
      <p className="account__email">
        Signed in as <strong>{user.email}</strong>
      </p>
      <MembershipPanel user={user} />
      {user.isSubscribed && <PodcastFeeds />}
      {newsletter}
      <SignOutButton />
      <SignedInBrowsers />
      <Suspense fallback={null}>
        <Passkeys />
      </Suspense>
      <AccountChanges email={user.email} />
    </AccountScreen>
  );
}

/**
 * How this browser proves its owner is here for a change: `recent` (a sign-in by link, code or
 * passkey in the last 12 hours: no password asked), `password`, or `sign-in-again` (neither: an
 * account made by a link, signed in too long ago).
 */
type Proof = 'recent' | 'password' | 'sign-in-again';

function proofOf(state: RecentSignIn): Proof {
  if (state.recentSignInUntil && Date.parse(state.recentSignInUntil) > Date.now()) return 'recent';
  return state.hasPassword ? 'password' : 'sign-in-again';
}

/** The address, the password and the deletion: each asks what this browser's sign-in needs. */
function AccountChanges({ email }: { email: string }) {
  const [state, setState] = useState<RecentSignIn | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    getRecentSignIn(controller.signal).then(setState, () => undefined);
    return () => controller.abort();
  }, [version]);
  if (!state) return null;
  const proof = proofOf(state);
  return (
    <>
      {proof === 'sign-in-again' && <SignInAgain email={email} />}
      <ChangeEmailForm proof={proof} />
      <ChangePasswordForm
        proof={proof}
        hasPassword={state.hasPassword}
        onChanged={() => setVersion((v) => v + 1)}
      />
      <DeleteAccount proof={proof} />
    </>
  );
}

/** An account without a password, signed in too long ago: a fresh link sign-in opens the changes. */
function SignInAgain({ email }: { email: string }) {
  const [sent, setSent] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  async function send() {
    setProblem(null);
    try {
      const { message } = await requestSignInLink(email);
      rememberReturnPath(paths.account);
      setSent(message);
    } catch (error) {
      setProblem(describeFailure(error));
    }
  }
  return (
    <div className="panel" role="note">
      <p>
        Your account has no password, and you signed in more than 12 hours ago. To change your email
        or password, or delete the account, sign in again with a link.
      </p>
      {sent ? (
        <p role="status">{sent} Open the link in this browser.</p>
      ) : (
        <p>
          <button type="button" className="button button--outline" onClick={() => void send()}>
            Email me a sign-in link
          </button>
        </p>
      )}
      <FormError message={problem ?? undefined} />
    </div>
  );
}

/**
 * The current password when the change needs it; else nothing to type (a recent sign-in), or why
 * nothing can change. A server error about the password shows whichever way.
 */
function CurrentPassword({
  proof,
  value,
  onChange,
  error,
  label = 'Current password',
}: {
  proof: Proof;
  value: string;
  onChange(value: string): void;
  error: string | undefined;
  label?: string;
}) {
  if (proof === 'password') {
    return <PasswordField label={label} value={value} onChange={onChange} error={error} />;
  }
  return (
    <>
      {proof === 'sign-in-again' && (
        <p className="field__hint">Sign in again with a link to change this.</p>
      )}
      <FormError message={error} />
    </>
  );
}

function SignOutButton() {
  const { setUser } = useSession();
  const navigate = useNavigate();
  return (
    <p>
      <button
        type="button"
        className="button button--outline"
        onClick={() =>
          void signOut().then(({ user }) => {
            setUser(user);
            navigate(paths.home);
          })
        }
      >
        Sign out
      </button>
    </p>
  );
}

function ChangeEmailForm({ proof }: { proof: Proof }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const { errors, submitting, onSubmit } = useFormSubmit(
    () => ({
      email: emailProblem(email) ?? undefined,
      password: proof !== 'password' || password ? undefined : 'Enter your password.',
    }),
    async () => {
      setSent((await changeEmail(email, proof === 'password' ? password : undefined)).message);
      setPassword('');
    },
  );
  return (
    <form className="panel" onSubmit={onSubmit} noValidate aria-labelledby="email-title">
      <h2 id="email-title">Change your email</h2>
      <EmailField label="New email" value={email} onChange={setEmail} error={errors.email} />
      <CurrentPassword
        proof={proof}
        value={password}
        onChange={setPassword}
        error={errors.password}
      />
      <FormError message={errors.form} />
      {sent && <p role="status">{sent}</p>}
      <button className="button" disabled={submitting || proof === 'sign-in-again'}>
        Change email
      </button>
    </form>
  );
}

function ChangePasswordForm({
  proof,
  hasPassword,
  onChanged,
}: {
  proof: Proof;
  hasPassword: boolean;
  onChanged(): void;
}) {
  const { setUser } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState(false);
  // The new password's problem goes under the new password; the current one's under its own field.
  const [currentError, setCurrentError] = useState<string | undefined>();
  const { errors, submitting, onSubmit } = useFormSubmit(
    () => ({ password: newPasswordProblem(next) ?? undefined }),
    async () => {
      setCurrentError(undefined);
      try {
        const answer = await changePassword(proof === 'password' ? current : undefined, next);
        setUser(answer.user);
      } catch (error) {
        if (
          error instanceof ApiError &&
          ['wrong_password', 'password_required', 'sign_in_again'].includes(error.code)
        ) {
          setCurrentError(error.message);
          return;
        }
        throw error;
      }
      setDone(true);
      setCurrent('');
      setNext('');
      onChanged();
    },
  );
  const title = hasPassword ? 'Change your password' : 'Set a password';
  return (
    <form className="panel" onSubmit={onSubmit} noValidate aria-labelledby="password-title">
      <h2 id="password-title">{title}</h2>
      <CurrentPassword proof={proof} value={current} onChange={setCurrent} error={currentError} />
      <PasswordField
        label="New password"
        isNew
        value={next}
        onChange={setNext}
        error={errors.password}
        hint="Other devices are signed out when it changes."
      />
      <FormError message={errors.form} />
      {done && <p role="status">Your password is saved. Other devices are signed out.</p>}
      <button className="button" disabled={submitting || proof === 'sign-in-again'}>
        {title}
      </button>
    </form>
  );
}

function DeleteAccount({ proof }: { proof: Proof }) {
  const { setUser } = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  // With no password to type, a tick says the reader means it.
  const [meant, setMeant] = useState(false);
  const { errors, submitting, onSubmit } = useFormSubmit(
    () => ({
      password: proof !== 'password' || password ? undefined : 'Enter your password to confirm.',
    }),
    async () => {
      setUser((await deleteAccount(proof === 'password' ? password : undefined)).user);
      navigate(paths.home);
    },
  );
  return (
    <form
      className="panel panel--danger"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="delete-title"
    >
      <h2 id="delete-title">Delete your account</h2>
      <p>
        This cancels a running subscription, deletes your email, password and membership, and signs
        you out. It cannot be undone.
      </p>
      <CurrentPassword
        proof={proof}
        label="Password"
        value={password}
        onChange={setPassword}
        error={errors.password}
      />
      {proof === 'recent' && (
        <label>
          <input
            type="checkbox"
            checked={meant}
            onChange={(event) => setMeant(event.target.checked)}
          />{' '}
          Yes, delete my account for good
        </label>
      )}
      <FormError message={errors.form} />
      <button
        className="button button--danger"
        disabled={submitting || proof === 'sign-in-again' || (proof === 'recent' && !meant)}
      >
        {submitting ? 'Deleting…' : 'Delete my account'}
      </button>
    </form>
  );
}
