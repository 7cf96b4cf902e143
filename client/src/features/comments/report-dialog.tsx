import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { createPortal } from 'react-dom';
import { REPORT_REASON_MAX } from '../../../../contract/comments';
import { describeFailure } from '../../lib/api-client';
import { reportComment } from './comments-api';
import '../../components/dialog.css';

/**
 * "Report this comment": why, in the reader's words, sent to the publisher's desk. A native modal
 * dialog (focus kept inside, Escape closes it), put at the end of the page.
 */
export function ReportDialog({
  commentId,
  author,
  onReported,
  onClose,
}: {
  commentId: string;
  author: string;
  onReported(): void;
  onClose(): void;
}) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = reason.trim();
    if (!trimmed) {
      setProblem('Say what is wrong with it.');
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await reportComment(commentId, trimmed);
      onReported();
      dialog.current?.close();
    } catch (error) {
      setProblem(describeFailure(error, 'Could not reach the server. Try again.'));
      setBusy(false);
    }
  }

  return createPortal(
    <dialog
      ref={dialog}
      className="dialog report-dialog"
      aria-labelledby={`${id}-title`}
      onClose={(event) => event.target === event.currentTarget && onClose()}
    >
      <form onSubmit={(event) => void submit(event)} noValidate className="comment-form">
        <h2 id={`${id}-title`}>Report {author}’s comment</h2>
        <label htmlFor={`${id}-reason`}>Why should the publisher look at it?</label>
        <textarea
          id={`${id}-reason`}
          value={reason}
          rows={3}
          maxLength={REPORT_REASON_MAX}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setReason(event.target.value)}
        />
        {problem && (
          <p id={`${id}-problem`} className="form-error" role="alert">
            {problem}
          </p>
        )}
        <p className="button-row">
          <button type="submit" className="button" disabled={busy}>
            {busy ? 'Sending…' : 'Send report'}
          </button>
          <button
            type="button"
            className="button button--outline"
            onClick={() => dialog.current?.close()}
          >
            Cancel
          </button>
        </p>
      </form>
    </dialog>,
    document.body,
  );
}
