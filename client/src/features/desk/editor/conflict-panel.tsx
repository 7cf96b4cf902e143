import { useState } from 'react';
import type { PostJson } from '../../../../../contract/posts';
import { formatLocal, type PostForm } from './post-form';

/**
 * Another staff member's save crossed the writer's: both versions side by side, to keep either
 * (the one not kept stays in the history) or to copy the writer's out first.
 */
export function ConflictPanel({
  mine,
  theirs,
  onKeepMine,
  onTakeTheirs,
}: {
  mine: PostForm;
  theirs: PostJson;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div
      className="desk__notice post-editor__conflict"
      role="alertdialog"
      aria-labelledby="conflict-title"
    >
      <h2 id="conflict-title">Someone else saved this post while you were writing</h2>
      <p>
        Both versions are here. Keep yours (theirs stays in the history), take theirs, or copy yours
        out first.
      </p>
      <div className="post-editor__versions">
        <section aria-label="Your version">
          <h3>Yours</h3>
          <p className="post-editor__version-title">{mine.title}</p>
          <pre>{mine.body}</pre>
        </section>
        <section aria-label="Their version">
          <h3>Theirs (saved {formatLocal(theirs.updatedAt)})</h3>
          <p className="post-editor__version-title">{theirs.title}</p>
          <pre>{theirs.body}</pre>
        </section>
      </div>
      <p className="button-row">
        <button type="button" className="button button--accent" onClick={onKeepMine}>
          Keep mine
        </button>
        <button type="button" className="button button--outline" onClick={onTakeTheirs}>
          Take theirs
        </button>
        <button
          type="button"
          className="button button--outline"
          onClick={() => {
            void navigator.clipboard
              .writeText(`${mine.title}\n\n${mine.body}`)
              .then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy mine'}
        </button>
      </p>
    </div>
  );
}
