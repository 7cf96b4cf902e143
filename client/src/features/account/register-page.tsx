import { useState } from 'react';
import { Link } from '../../lib/router';
import { paths } from '../../config/paths';
import { AccountScreen } from './account-screen';
import { EmailField, FormError } from '../../components/form-field';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { useSession } from '../../lib/session/session-context';
import { register } from './account-api';
import { useFormSubmit } from './use-form-submit';
import { emailProblem } from './validation';

/**
 * /register: the seed's sign-up card made real. Asks only for the address: its owner chooses the
 * password on the page the mailed link opens. Keeps whatever this visitor already paid for.
 */
export default function RegisterPage() {
  const siteName = useSiteName();
  useDocumentHead('Create your account', `Keep your ${siteName} membership on every device.`);
  const { user } = useSession();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const { errors, submitting, onSubmit } = useFormSubmit(
    () => ({ email: emailProblem(email) ?? undefined }),
    async () => {
      setSent((await register(email)).message);
    },
  );

  if (user?.email) {
    return (
      <AccountScreen title="You have an account">
        <p>
          You are signed in as <strong>{user.email}</strong>.{' '}
          <Link to={paths.account}>Go to your account</Link>.
        </p>
      </AccountScreen>
    );
  }
  if (sent) {
    return (
      <AccountScreen title="Check your email">
        <p role="status">{sent}</p>
        <p>
          The address: <strong>{email.trim()}</strong>. Nothing is tied to the address until you
          open the link, choose your password and press the button. No mail? Look in the spam
          folder, or{' '}
          <button type="button" className="link-button" onClick={() => setSent(null)}>
            try again
          </button>
          .
        </p>
      </AccountScreen>
    );
  }
  return (
    <AccountScreen
      title="Create your account"
      lede={`An account keeps your membership on every device.${user?.isSubscribed ? ' The membership you bought on this device comes with you.' : ''}`}
    >
      <form onSubmit={onSubmit} noValidate>
        <EmailField
          value={email}
          onChange={setEmail}
          error={errors.email}
          hint="We mail this address a link: you choose your password on the page it opens."
        />
        <FormError message={errors.form} />
        <button className="button button--accent" disabled={submitting}>
          {submitting ? 'Sending…' : 'Register'}
        </button>
      </form>
      <p>
        Already have an account? <Link to={paths.login}>Sign in</Link>
      </p>
    </AccountScreen>
  );
}
