import { useState } from 'react';
import { Link } from '../../lib/router';
import { paths } from '../../config/paths';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { MIN_PASSWORD_LENGTH } from '../../../../contract/account-rules';
import { confirmRegistration, previewRegistration } from './account-api';
import { PasswordField } from './fields';
import { MailedLinkPage } from './mailed-link-page';
import { newPasswordProblem } from './validation';

/**
 * /register/confirm#token=… (the link /register mails): the owner of the address chooses the
 * password here, so whoever asked for the mail never knows it; the button makes the account.
 */
export default function RegisterConfirmPage() {
  const siteName = useSiteName();
  useDocumentHead('Finish creating your account', `Finish creating your ${siteName} account.`);
  const [password, setPassword] = useState('');
  return (
    <MailedLinkPage
      title="Finish creating your account"
      explain={(email) => (
        <>
          Choose a password for <strong>{email}</strong>, then press the button to create your
          account and sign in.
        </>
      )}
      button="Create my account"
      busy="Creating your account…"
      missing={
        <>
          This page needs the link from the mail we sent when you registered.{' '}
          <Link to={paths.register}>Register again</Link>.
        </>
      }
      preview={previewRegistration}
      confirm={(token, moveMembership) => confirmRegistration(token, password, moveMembership)}
      validate={() => ({ password: newPasswordProblem(password) ?? undefined })}
      fields={(errors) => (
        <PasswordField
          isNew
          value={password}
          onChange={setPassword}
          error={errors.password}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters. A short sentence is easy to remember.`}
        />
      )}
    />
  );
}
