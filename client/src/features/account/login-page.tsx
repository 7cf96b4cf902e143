import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, useLocation, useNavigate } from '../../lib/router';
import { paths } from '../../config/paths';
import { EmailField, FormError, FormField } from '../../components/form-field';
import { AccountScreen } from './account-screen';
import { PasswordField } from './fields';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { useSession } from '../../lib/session/session-context';
import { confirmSignInCode, requestSignInLink, signIn } from './account-api';
import { rememberReturnPath, takeReturnPath } from './return-path';
import { useFormSubmit } from './use-form-submit';
import { emailProblem } from './validation';
import type { User } from '../../../../contract/api';

// Loaded after the page: the passkey code never rides in the app's first load.
const PasskeySignIn = lazy(() => import('./passkeys-sign-in'));

/** Where the visitor came from, when a page sent them here with `state: { from }`. */
function useReturnPath(): string | null {
  const state: unknown = useLocation().state;
  if (typeof state === 'object' && state !== null && 'from' in state) {
    const from = (state as { from: unknown }).from;
    if (typeof from === 'string' && from.startsWith('/') && !from.startsWith('//')) return from;
  }
  return null;
}

/**
 * /login: restores an account (and its membership) on this device, with a password, or with a
 * link and code mailed to the address ("Email me a sign-in link"): the link signs in wherever it
 * is opened, the code here.
 */
export default function LoginPage() {
  const siteName = useSiteName();
  useDocumentHead('Sign in', `Sign in to your ${siteName} account.`);
  const { setUser } = useSession();
  const navigate = useNavigate();
  const returnPath = useReturnPath();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [linkSent, setLinkSent] = useState<{ email: string; message: string } | null>(null);

  // Stable, so that the passkey's autofill request (started once the page shows) is not restarted.
  const signedIn = useCallback(
    (user: User) => {
      setUser(user);
      navigate(takeReturnPath() ?? returnPath ?? paths.account);
    },
    [setUser, navigate, returnPath],
  );
  const withPassword = useFormSubmit(
    () => ({
      email: emailProblem(email) ?? undefined,
      password: password ? undefined : 'Enter your password.',
    }),
    async () => signedIn((await signIn(email, password)).user),
  );
  const askForLink = useFormSubmit(
    () => ({ email: emailProblem(email) ?? undefined }),
    async () => {
      const { message } = await requestSignInLink(email);
      rememberReturnPath(returnPath);
      setLinkSent({ email: email.trim(), message });
      setCode('');
    },
  );
  const withCode = useFormSubmit(
    () => ({ code: /^\s*\d{3}\s*-?\s*\d{3}\s*$/.test(code) ? undefined : 'Enter the 6 digits.' }),
    async () => signedIn((await confirmSignInCode(linkSent?.email ?? email, code)).user),
  );

  if (linkSent) {
    return (
      <AccountScreen title="Check your email">
        <p role="status">
          {linkSent.message} Sent to <strong>{linkSent.email}</strong>: open the link on any device,
          or type the code here.
        </p>
        <form onSubmit={withCode.onSubmit} noValidate aria-label="Sign in with the code">
          <FormField
            label="6-digit code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={withCode.errors.code}
            required
          />
          <FormError message={withCode.errors.form} />
          <button className="button button--accent" disabled={withCode.submitting}>
            {withCode.submitting ? 'Signing in…' : 'Sign in with the code'}
          </button>
        </form>
        <p>
          No mail? Look in the spam folder, or{' '}
          <button type="button" className="link-button" onClick={() => setLinkSent(null)}>
            ask again
          </button>{' '}
          (the new mail replaces this one).
        </p>
      </AccountScreen>
    );
  }
  return (
    <AccountScreen title="Sign in" lede="Restore your account and membership on this device.">
      <form onSubmit={withPassword.onSubmit} noValidate>
        <EmailField
          value={email}
          onChange={setEmail}
          error={withPassword.errors.email ?? askForLink.errors.email}
          autoComplete="username webauthn"
        />
        <PasswordField
          value={password}
          onChange={setPassword}
          error={withPassword.errors.password}
        />
        <FormError message={withPassword.errors.form} />
        <button className="button button--accent" disabled={withPassword.submitting}>
          {withPassword.submitting ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <form onSubmit={askForLink.onSubmit} noValidate aria-label="Sign-in link">
        <p>No password, or forgot it? We can mail you a link and a code that sign you in.</p>
        <FormError message={askForLink.errors.form} />
        <button className="button button--outline" disabled={askForLink.submitting}>
          {askForLink.submitting ? 'Sending…' : 'Email me a sign-in link'}
        </button>
      </form>
      <Suspense fallback={null}>
        <PasskeySignIn onSignedIn={signedIn} />
      </Suspense>
      <p>
        <Link to={paths.resetPassword}>Forgot your password?</Link>
      </p>
      <p>
        New here? <Link to={paths.register}>Create an account</Link>
      </p>
    </AccountScreen>
  );
}
