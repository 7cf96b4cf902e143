import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { createPortal } from 'react-dom';
import { REPORT_REASON_MAX } from '../../../../contract/comments';
import { FormError } from '../../components/form-field';
import { useRequest } from '../../lib/use-request';
import { reportComment } from './comments-api';
import '../../components/dialog.css';
import { UNREACHABLE } from './comment-form';

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
  const { problem, setProblem, busy, run } = useRequest(UNREACHABLE);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = reason.trim();
    if (!trimmed) {
      setProblem('Say what is wrong with it.');
      return;
    }
    void run(
      () => reportComment(commentId, trimmed),
      () => {
        onReported();
        dialog.current?.close();
      },
    );
  }

  return createPortal(
    <dialog
      ref={dialog}
      className="dialog report-dialog"
      aria-labelledby={`${id}-title`}
      onClose={(event) => event.target === event.currentTarget && onClose()}
    >
      <form onSubmit={submit} noValidate className="comment-form">
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
        <FormError id={`${id}-problem`} message={problem} />
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
