import { useEffect, useState } from 'react';
import { useNavigate } from '../../lib/router';
import { paths } from '../../config/paths';
import { AccountScreen } from './account-screen';
import { EmailField, FormError } from '../../components/form-field';
import { PasswordField } from './fields';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { useSession } from '../../lib/session/session-context';
import { requestPasswordReset, resetPassword } from './account-api';
import { useFormSubmit } from './use-form-submit';
import { MIN_PASSWORD_LENGTH } from '../../../../contract/account-rules';
import { emailProblem, newPasswordProblem } from './validation';

/**
 * The mailed link's token: in the fragment (`#token=…`, which browsers never send to a server),
 * or in the query of a link mailed before the fragment was used.
 */
const tokenFromAddress = () =>
  new URLSearchParams(window.location.hash.slice(1)).get('token') ??
  new URLSearchParams(window.location.search).get('token');

/**
 * /reset-password asks for an email; /reset-password#token=… (the mailed link) shows the form
 * that sets a new password. Opening the link changes nothing: only submitting the form does.
 */
export default function ResetPasswordPage() {
  const siteName = useSiteName();
  useDocumentHead('Reset your password', `Choose a new password for your ${siteName} account.`);
  const [token] = useState(tokenFromAddress);
  // Once read, out of the address bar (and of the history a shared screen could show).
  useEffect(() => {
    if (window.location.hash || window.location.search) {
      window.history.replaceState(null, '', window.location.pathname);
    }
  }, []);
  return (
    <AccountScreen title="Reset your password">
      {token ? <NewPasswordForm token={token} /> : <RequestLinkForm />}
    </AccountScreen>
  );
}

function RequestLinkForm() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const { errors, submitting, onSubmit } = useFormSubmit(
    () => ({ email: emailProblem(email) ?? undefined }),
    async () => setSent((await requestPasswordReset(email)).message),
  );
  if (sent) return <p role="status">{sent}</p>;
  return (
    <form onSubmit={onSubmit} noValidate>
      <p className="field__hint">Enter the email of your account and we will mail you a link.</p>
      <EmailField value={email} onChange={setEmail} error={errors.email} />
      <FormError message={errors.form} />
      <button className="button button--accent" disabled={submitting}>
        {submitting ? 'Sending…' : 'Send the link'}
      </button>
    </form>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const { setUser } = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const { errors, submitting, onSubmit } = useFormSubmit(
    () => ({ password: newPasswordProblem(password) ?? undefined }),
    async () => {
      const result = await resetPassword(token, password);
      setUser(result.user);
      navigate(paths.account, { replace: true });
    },
  );
  return (
    <form onSubmit={onSubmit} noValidate>
      <PasswordField
        label="New password"
        isNew
        value={password}
        onChange={setPassword}
        error={errors.password}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
      />
      {errors.form && (
        <p className="form-error" role="alert">
          {errors.form}{' '}
          {/* A page load, not a route change: the page reads the token from the address once. */}
          <a href={paths.resetPassword}>Ask for a new link</a>
        </p>
      )}
      <button className="button button--accent" disabled={submitting}>
        {submitting ? 'Saving…' : 'Set the new password'}
      </button>
    </form>
  );
}
