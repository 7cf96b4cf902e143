import { Link } from '../../lib/router';
import { paths } from '../../config/paths';
import { useDocumentHead } from '../../lib/document-head';
import { confirmRegistration } from './account-api';
import { MailedLinkPage } from './mailed-link-page';

/** /register/confirm#token=… (the link /register mails): the button finishes the account. */
export default function RegisterConfirmPage() {
  useDocumentHead('Finish creating your account', 'Finish creating your Cohort account.');
  return (
    <MailedLinkPage
      title="Finish creating your account"
      explanation="Press the button to create your account with this address and sign in."
      button="Create my account"
      busy="Creating your account…"
      missing={
        <>
          This page needs the link from the mail we sent when you registered.{' '}
          <Link to={paths.register}>Register again</Link>.
        </>
      }
      confirm={confirmRegistration}
    />
  );
}
