import { useState } from 'react';
import type { PostJson } from '../../../../../contract/posts';
import { fetchRevision, fetchRevisions, type Revision } from './post-api';
import { formatLocal } from './post-form';
import { RevisionDiff } from './revision-diff';

/**
 * The post's earlier versions, read when the panel is opened: each with the status it had, a
 * comparison with the post now (read when asked for), and a restore (after a confirmation: what
 * is there now stays in the history). The page holds the list, and forgets it once a version is
 * restored.
 */
export function HistoryPanel({
  current,
  revisions,
  onRead,
  onRestore,
}: {
  current: PostJson;
  revisions: Revision[] | null;
  onRead: (revisions: Revision[]) => void;
  onRestore: (revision: Revision) => void;
}) {
  /** The version being compared, once read (null while it is being read). */
  const [compared, setCompared] = useState<{ version: number; post: PostJson | null } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  function compare(version: number) {
    if (compared?.version === version) {
      setCompared(null);
      return;
    }
    setProblem(null);
    setCompared({ version, post: null });
    fetchRevision(current.id, version).then(
      ({ revision }) =>
        setCompared((open) =>
          open?.version === version ? { version, post: revision.post } : open,
        ),
      (error: unknown) => {
        setCompared(null);
        setProblem(error instanceof Error ? error.message : 'That version could not be read.');
      },
    );
  }

  return (
    <details
      className="post-editor__history"
      onToggle={(event) => {
        if ((event.target as HTMLDetailsElement).open) {
          void fetchRevisions(current.id).then(({ revisions: list }) => onRead(list));
        }
      }}
    >
      <summary>History</summary>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {revisions === null ? (
        <p className="desk__loading">Loading…</p>
      ) : revisions.length === 0 ? (
        <p className="desk__empty">No earlier versions yet.</p>
      ) : (
        <ol className="post-editor__revisions" reversed>
          {revisions.map((revision) => {
            const open = compared?.version === revision.version;
            return (
              <li key={revision.version}>
                <span>
                  Version {revision.version} ·{' '}
                  <span className={`revision-status revision-status--${revision.status}`}>
                    {revision.status}
                  </span>{' '}
                  · {formatLocal(revision.savedAt)}
                  {revision.savedByEmail ? ` · ${revision.savedByEmail}` : ''}
                </span>
                <span className="button-row">
                  <button
                    type="button"
                    className="button button--outline"
                    aria-expanded={open}
                    aria-label={`Compare version ${revision.version} with now`}
                    onClick={() => compare(revision.version)}
                  >
                    {open ? 'Hide changes' : 'Changes'}
                  </button>
                  <button
                    type="button"
                    className="button button--outline"
                    aria-label={`Restore version ${revision.version}`}
                    onClick={() => onRestore(revision)}
                  >
                    Restore
                  </button>
                </span>
                {open &&
                  (compared?.post ? (
                    <RevisionDiff revision={compared.post} current={current} />
                  ) : (
                    <p className="desk__loading">Loading…</p>
                  ))}
              </li>
            );
          })}
        </ol>
      )}
    </details>
  );
}
