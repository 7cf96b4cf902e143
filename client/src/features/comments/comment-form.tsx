import { useId, useState, type FormEvent } from 'react';
import { COMMENT_MAX_LENGTH } from '../../../../contract/comments';
import { ApiError, describeFailure } from '../../lib/api-client';

/** What a commenter is told when the server did not answer. */
export const UNREACHABLE = 'Could not reach the server. Try again.';

/** What to tell a commenter when the server refused, in words (a flood's wait included). */
export function describeCommentFailure(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) {
    const seconds = error.retryAfterSeconds ?? 60;
    return `You are commenting too fast. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
  }
  return describeFailure(error, UNREACHABLE);
}

/**
 * A text box and its button: a new comment, a reply, an edit. Sends the trimmed text; emptied
 * once sent (unless it was an edit, which closes instead); the server's refusal shown under it.
 */
export function CommentForm({
  label,
  submitLabel,
  initialText = '',
  autoFocus = false,
  onSubmit,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  initialText?: string;
  autoFocus?: boolean;
  /** Sends the text; throws what the server answered. */
  onSubmit(text: string): Promise<void>;
  onCancel?: () => void;
}) {
  const id = useId();
  const [text, setText] = useState(initialText);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const length = text.trim().length;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (length === 0) {
      setProblem('Write something first.');
      return;
    }
    if (length > COMMENT_MAX_LENGTH) {
      setProblem(
        `A comment can be at most ${COMMENT_MAX_LENGTH.toLocaleString('en-US')} characters.`,
      );
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await onSubmit(text.trim());
      setText('');
    } catch (error) {
      setProblem(describeCommentFailure(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="comment-form" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor={`${id}-text`}>{label}</label>
      <textarea
        id={`${id}-text`}
        value={text}
        rows={4}
        // A reply's or an edit's box opens where the reader clicked: the caret goes there too.
        autoFocus={autoFocus}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : `${id}-hint`}
        onChange={(event) => setText(event.target.value)}
      />
      {problem ? (
        <p id={`${id}-problem`} className="form-error" role="alert">
          {problem}
        </p>
      ) : (
        <p id={`${id}-hint`} className="comment-form__hint">
          **bold**, *italic*, [links](https://…), &gt; quotes and `code` work.
          {length > COMMENT_MAX_LENGTH * 0.9 && ` ${COMMENT_MAX_LENGTH - length} characters left.`}
        </p>
      )}
      <p className="button-row">
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Sending…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button button--outline" onClick={onCancel}>
            Cancel
          </button>
        )}
      </p>
    </form>
  );
}
