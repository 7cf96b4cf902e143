import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from '../../lib/router';
import type { MailedLinkPreview, User } from '../../../../contract/api';
import { paths } from '../../config/paths';
import { describeFailure } from '../../lib/api-client';
import { useSession } from '../../lib/session/session-context';
import { useTokenFromAddress } from '../../lib/use-token-from-address';
import { AccountScreen } from './account-screen';
import { FormError } from '../../components/form-field';
import { takeReturnPath } from './return-path';
import { useFormSubmit } from './use-form-submit';
import type { FieldErrors } from './validation';

interface MailedLinkPageProps {
  title: string;
  /** What pressing the button does, for the address the link is for. */
  explain(email: string): ReactNode;
  button: string;
  busy: string;
  /** What to say when the page was opened without the link's token. */
  missing: ReactNode;
  preview(token: string, signal: AbortSignal): Promise<MailedLinkPreview>;
  confirm(token: string, moveMembership: boolean): Promise<{ user: User }>;
  /** Fields of the page's own above the button (the password on /register/confirm). */
  fields?(errors: FieldErrors): ReactNode;
  validate?(): FieldErrors;
}

type Preview =
  | { state: 'loading' }
  | { state: 'ready'; link: MailedLinkPreview }
  | { state: 'failed'; message: string };

/**
 * A page a mailed link opens (/register/confirm, /sign-in/link). Opening it changes nothing: mail
 * scanners follow links. It names the address the link is for (someone may have sent a link of
 * their own), asks before a membership bought in this browser moves into that account, and only
 * pressing the button POSTs the token; then the visitor, signed in, goes back where they were (or
 * to /account).
 */
export function MailedLinkPage({
  title,
  explain,
  button,
  busy,
  missing,
  preview,
  confirm,
  fields,
  validate = () => ({}),
}: MailedLinkPageProps) {
  const { setUser } = useSession();
  const navigate = useNavigate();
  const token = useTokenFromAddress();
  const [link, setLink] = useState<Preview>({ state: 'loading' });
  const [moveMembership, setMoveMembership] = useState(false);
  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    preview(token, controller.signal).then(
      (answer) => setLink({ state: 'ready', link: answer }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = describeFailure(error);
        setLink({ state: 'failed', message });
      },
    );
    return () => controller.abort();
  }, [token, preview]);
  const { errors, submitting, onSubmit } = useFormSubmit(validate, async () => {
    if (!token) return;
    const result = await confirm(token, moveMembership);
    setUser(result.user);
    const next = takeReturnPath() ?? paths.account;
    // The desk is a page of its own the server marks for staff: loaded, not routed to.
    if (next === paths.desk || next.startsWith(`${paths.desk}/`)) window.location.assign(next);
    else navigate(next);
  });

  if (!token) {
    return (
      <AccountScreen title={title}>
        <p>{missing}</p>
      </AccountScreen>
    );
  }
  if (link.state !== 'ready') {
    return (
      <AccountScreen title={title}>
        {link.state === 'loading' ? (
          <p role="status">Checking the link…</p>
        ) : (
          <p role="alert" className="form-error">
            {link.message} <Link to={paths.login}>Ask for a new link</Link>.
          </p>
        )}
      </AccountScreen>
    );
  }
  const { email, askToMove } = link.link;
  return (
    <AccountScreen title={title}>
      <form onSubmit={onSubmit} noValidate>
        <p className="account__email">{explain(email)}</p>
        {fields?.(errors)}
        {askToMove && (
          <div className="mailed-link__move">
            <p>
              This browser holds a membership bought without an account. Tick the box to move it
              into the account of <strong>{email}</strong>. If that address is not yours, stop here:
              the membership stays in this browser.
            </p>
            <label>
              <input
                type="checkbox"
                checked={moveMembership}
                onChange={(event) => setMoveMembership(event.target.checked)}
              />{' '}
              Move this browser’s membership into this account
            </label>
          </div>
        )}
        <FormError message={errors.form} />
        <button
          className="button button--accent"
          disabled={submitting || (askToMove && !moveMembership)}
        >
          {submitting ? busy : button}
        </button>
      </form>
    </AccountScreen>
  );
}
