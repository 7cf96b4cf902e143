import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { COMMENTER_NAME_MAX, type CommentViewer } from '../../../../contract/comments';
import { FormError } from '../../components/form-field';
import { paths } from '../../config/paths';
import { Link, useLocation } from '../../lib/router';
import { useSession } from '../../lib/session/session-context';
import { useRequest } from '../../lib/use-request';
import { saveCommenterName } from './comments-api';
import { UNREACHABLE } from './comment-form';

/**
 * What stands where a reader writes, before they may: for a visitor (and in the server's HTML,
 * before the browser knows who reads) how to sign in; for an account that may not comment, why
 * and what to do; for one without a display name, a box for it. Then `children`: the comment box.
 */
export function CommentGate({
  viewer,
  anchor,
  onNamed,
  children,
}: {
  /** What the server said of the reader under this post; null until it has. */
  viewer: CommentViewer | null;
  /** The section's id: signing in comes back to it. */
  anchor: string;
  onNamed(name: string): void;
  children: ReactNode;
}) {
  const { user, status } = useSession();
  const { pathname } = useLocation();
  if (status !== 'ready' || !user?.email) {
    return (
      <p className="comments__gate comments__gate--visitor">
        <Link to={paths.login} state={{ from: `${pathname}#${anchor}` }}>
          Sign in to join the conversation
        </Link>
      </p>
    );
  }
  if (!viewer) return null;
  if (!viewer.canComment) {
    return user.isSubscribed ? (
      <p className="comments__gate">Your account cannot comment here at the moment.</p>
    ) : (
      <p className="comments__gate">
        Comments are for members. <Link to={paths.earlyAccess}>Become a member</Link> to join the
        conversation.
      </p>
    );
  }
  if (!viewer.name) return <NameForm onNamed={onNamed} />;
  return <>{children}</>;
}

/** The display name comments go under, asked once (PATCH /api/account/profile). */
function NameForm({ onNamed }: { onNamed(name: string): void }) {
  const id = useId();
  const [name, setName] = useState('');
  const { problem, setProblem, busy, run } = useRequest(UNREACHABLE);

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setProblem('Write the name your comments will show.');
      return;
    }
    void run(
      () => saveCommenterName(trimmed),
      (saved) => onNamed(saved.name),
    );
  }

  return (
    <form className="comment-form" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-name`}>Your name</label>
      <p id={`${id}-hint`} className="comment-form__hint">
        Your comments show it beside what you write.
      </p>
      <input
        id={`${id}-name`}
        value={name}
        maxLength={COMMENTER_NAME_MAX}
        autoComplete="name"
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : `${id}-hint`}
        onChange={(event) => setName(event.target.value)}
      />
      <FormError id={`${id}-problem`} message={problem} />
      <p className="button-row">
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Saving…' : 'Save name'}
        </button>
      </p>
    </form>
  );
}
