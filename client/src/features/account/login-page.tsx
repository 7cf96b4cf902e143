import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { AccountScreen } from './account-screen';
import { EmailField, FormError, PasswordField } from './fields';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { useSession } from '../../lib/session/session-context';
import { signIn } from './account-api';
import type { User } from '../../../../contract/api';
import { useFormSubmit } from './use-form-submit';
import { emailProblem } from './validation';

// Loaded after the page: the passkey code never rides in the app's first load.
const PasskeySignIn = lazy(() => import('./passkeys-sign-in'));

/** /login: restores an account (and its membership) on this device. */
export default function LoginPage() {
  const siteName = useSiteName();
  useDocumentHead('Sign in', `Sign in to your ${siteName} account.`);
  const { setUser } = useSession();
  const navigate = useNavigate();
  const signedIn = useCallback(
    (user: User) => {
      setUser(user);
      navigate(paths.account);
    },
    [setUser, navigate],
  );
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, submitting, onSubmit } = useFormSubmit(
    () => ({
      email: emailProblem(email) ?? undefined,
      password: password ? undefined : 'Enter your password.',
    }),
    async () => {
      signedIn((await signIn(email, password)).user);
    },
  );
  return (
    <AccountScreen title="Sign in" lede="Restore your account and membership on this device.">
      <form onSubmit={onSubmit} noValidate>
        <EmailField
          value={email}
          onChange={setEmail}
          error={errors.email}
          autoComplete="username webauthn"
        />
        <PasswordField value={password} onChange={setPassword} error={errors.password} />
        <FormError message={errors.form} />
        <button className="button button--accent" disabled={submitting}>
          {submitting ? 'Signing in…' : 'Sign in'}
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
