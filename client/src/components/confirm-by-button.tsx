import type { ReactNode } from 'react';
import { useMessageRequest } from '../lib/use-request';

/**
 * The page a mailed link opens to confirm something (a new address, a subscription). Opening it
 * changes nothing, since mail scanners follow links: only pressing the button does. Without the
 * link's token it says where to get a new one.
 */
export function ConfirmByButton({
  token,
  prompt,
  button,
  confirm,
  afterDone,
  noToken,
}: {
  /** The token the link carried, read from the address (`useTokenFromAddress`). */
  token: string | null;
  prompt: ReactNode;
  button: string;
  /** Sends the token; answers the sentence to show once it is done. */
  confirm(token: string): Promise<{ message: string }>;
  /** What follows the sentence once confirmed (where to go next). */
  afterDone?: ReactNode;
  noToken: ReactNode;
}) {
  const { done, problem, busy: submitting, send } = useMessageRequest();

  async function press() {
    if (!token) return;
    await send(() => confirm(token));
  }

  if (done) {
    return (
      <>
        <p role="status">{done}</p>
        {afterDone}
      </>
    );
  }
  if (!token) return <>{noToken}</>;
  return (
    <>
      <p>{prompt}</p>
      {problem && (
        <p role="alert" className="form-error">
          {problem}
        </p>
      )}
      <button
        type="button"
        className="button button--accent"
        disabled={submitting}
        onClick={() => void press()}
      >
        {submitting ? 'Confirming…' : button}
      </button>
    </>
  );
}
