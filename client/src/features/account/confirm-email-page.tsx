import { Link } from '../../lib/router';
import { ConfirmByButton } from '../../components/confirm-by-button';
import { paths } from '../../config/paths';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { useSession } from '../../lib/session/session-context';
import { useTokenFromAddress } from '../../lib/use-token-from-address';
import { AccountScreen } from './account-screen';
import { confirmEmailChange } from './account-api';

/** /confirm-email#token=… (the link mailed to a new address). */
export default function ConfirmEmailPage() {
  const siteName = useSiteName();
  useDocumentHead('Confirm your new email', `Confirm the new email of your ${siteName} account.`);
  const { refresh } = useSession();
  const token = useTokenFromAddress();

  return (
    <AccountScreen title="Confirm your new email">
      <ConfirmByButton
        token={token}
        prompt="Press Confirm to make this address your account’s email."
        button="Confirm"
        confirm={async (confirmed) => {
          const answer = await confirmEmailChange(confirmed);
          // The navbar and the account page show the new address; the sentence need not wait.
          void refresh();
          return answer;
        }}
        afterDone={
          <p>
            <Link className="button button--accent" to={paths.account}>
              Go to your account
            </Link>
          </p>
        }
        noToken={
          <p>
            This page needs the link from the confirmation mail. Ask for a new one from{' '}
            <Link to={paths.account}>your account</Link>.
          </p>
        }
      />
    </AccountScreen>
  );
}
