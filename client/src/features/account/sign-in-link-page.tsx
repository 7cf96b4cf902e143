import { Link } from '../../lib/router';
import { paths } from '../../config/paths';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { confirmSignInLink, previewSignInLink } from './account-api';
import { MailedLinkPage } from './mailed-link-page';

/** /sign-in/link#token=… (from "Email me a sign-in link"): the button signs in. */
export default function SignInLinkPage() {
  const siteName = useSiteName();
  useDocumentHead('Sign in', `Sign in to ${siteName} with the link we mailed you.`);
  return (
    <MailedLinkPage
      title="Sign in"
      explain={(email) => (
        <>
          Press Sign in to sign in as <strong>{email}</strong> in this browser. The link works once.
        </>
      )}
      button="Sign in"
      busy="Signing in…"
      missing={
        <>
          This page needs the link from the sign-in mail. <Link to={paths.login}>Ask for one</Link>.
        </>
      }
      preview={previewSignInLink}
      confirm={confirmSignInLink}
    />
  );
}
