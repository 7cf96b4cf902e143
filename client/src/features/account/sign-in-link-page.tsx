import { Link } from '../../lib/router';
import { paths } from '../../config/paths';
import { useDocumentHead } from '../../lib/document-head';
import { confirmSignInLink } from './account-api';
import { MailedLinkPage } from './mailed-link-page';

/** /sign-in/link#token=… (from "Email me a sign-in link"): the button signs in. */
export default function SignInLinkPage() {
  useDocumentHead('Sign in', 'Sign in to Cohort with the link we mailed you.');
  return (
    <MailedLinkPage
      title="Sign in"
      explanation="Press Sign in to sign in to Cohort in this browser. The link works once."
      button="Sign in"
      busy="Signing in…"
      missing={
        <>
          This page needs the link from the sign-in mail. <Link to={paths.login}>Ask for one</Link>.
        </>
      }
      confirm={confirmSignInLink}
    />
  );
}
