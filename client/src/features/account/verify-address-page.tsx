import { useState } from 'react';
import { Link } from '../../lib/router';
import { paths } from '../../config/paths';
import { describeFailure } from '../../lib/api-client';
import { useDocumentHead } from '../../lib/document-head';
import { useSession } from '../../lib/session/session-context';
import { AccountScreen } from './account-screen';
import { FormError } from '../../components/form-field';
import { requestSignInLink } from './account-api';
import { rememberReturnPath } from './return-path';

/**
 * What the server sends to /desk for an account listed as staff whose address is not proven yet
 * (`<html data-desk="verify-address">`): the desk opens once its owner has used a link mailed to
 * it. The button mails one; signing in with it proves the address.
 */
export default function VerifyAddressPage() {
  useDocumentHead('Verify your address', 'Verify your address to open the desk.');
  const { user } = useSession();
  const [sent, setSent] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function send(email: string) {
    setSending(true);
    setProblem(null);
    try {
      const { message } = await requestSignInLink(email);
      rememberReturnPath(paths.desk);
      setSent(message);
    } catch (error) {
      setProblem(describeFailure(error));
    } finally {
      setSending(false);
    }
  }

  return (
    <AccountScreen
      title="Verify your address"
      lede="The desk opens once you have proven that this account's address is yours."
    >
      {sent ? (
        <p role="status">{sent} Open the link, press Sign in, and the desk opens.</p>
      ) : user?.email ? (
        <>
          <p>
            We will mail a sign-in link to <strong>{user.email}</strong>. Signing in with it
            verifies the address.
          </p>
          <FormError message={problem ?? undefined} />
          <button
            type="button"
            className="button button--accent"
            disabled={sending}
            onClick={() => void send(user.email ?? '')}
          >
            {sending ? 'Sending…' : 'Email me a link'}
          </button>
        </>
      ) : (
        <p>
          <Link to={paths.login}>Sign in</Link> first.
        </p>
      )}
    </AccountScreen>
  );
}
