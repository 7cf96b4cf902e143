import { fetchRevisions, type Revision } from './post-api';
import { formatLocal } from './post-form';

/**
 * The post's earlier versions, read when the panel is opened, each one restorable (after a
 * confirmation: what is there now stays in the history). The page holds the list, and forgets it
 * once a version is restored.
 */
export function HistoryPanel({
  postId,
  revisions,
  onRead,
  onRestore,
}: {
  postId: number;
  revisions: Revision[] | null;
  onRead: (revisions: Revision[]) => void;
  onRestore: (revision: Revision) => void;
}) {
  return (
    <details
      className="post-editor__history"
      onToggle={(event) => {
        if ((event.target as HTMLDetailsElement).open) {
          void fetchRevisions(postId).then(({ revisions: list }) => onRead(list));
        }
      }}
    >
      <summary>History</summary>
      {revisions === null ? (
        <p className="desk__loading">Loading…</p>
      ) : revisions.length === 0 ? (
        <p className="desk__empty">No earlier versions yet.</p>
      ) : (
        <ol className="post-editor__revisions" reversed>
          {revisions.map((revision) => (
            <li key={revision.version}>
              <span>
                Version {revision.version} · {formatLocal(revision.savedAt)}
                {revision.savedByEmail ? ` · ${revision.savedByEmail}` : ''}
              </span>
              <button
                type="button"
                className="button button--outline"
                aria-label={`Restore version ${revision.version}`}
                onClick={() => onRestore(revision)}
              >
                Restore
              </button>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
