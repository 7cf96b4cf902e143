import type { PostJson } from '../../../../../contract/posts';
import type { PendingChange } from './pending-change';

/**
 * The post's buttons: save (a live post's "Publish changes"), preview, and what the staff member's
 * role allows: publish and unpublish for editors and owners, "Submit for publishing" for writers.
 */
export function PublishActions({
  post,
  untitled,
  mayPublish,
  onSave,
  onPreview,
  onAsk,
  onSubmit,
}: {
  post: PostJson | null;
  /** A new post with no title yet: nothing to publish. */
  untitled: boolean;
  mayPublish: boolean;
  onSave: () => void;
  onPreview: () => void;
  onAsk: (change: PendingChange) => void;
  onSubmit: () => void;
}) {
  const live = post !== null && post.status !== 'draft';
  return (
    <div className="button-row post-editor__actions">
      {!live && (
        <button type="button" className="button" onClick={onSave}>
          Save draft
        </button>
      )}
      {live && mayPublish && (
        <button type="button" className="button button--accent" onClick={onSave}>
          Publish changes
        </button>
      )}
      <button type="button" className="button button--outline" onClick={onPreview}>
        Preview
      </button>
      {!live && mayPublish && (
        <button
          type="button"
          className="button button--accent"
          disabled={!post && untitled}
          onClick={() => onAsk({ change: 'publish' })}
        >
          Publish
        </button>
      )}
      {live && mayPublish && (
        <button
          type="button"
          className="button button--outline"
          onClick={() => onAsk({ change: 'unpublish' })}
        >
          Unpublish
        </button>
      )}
      {!mayPublish && post && post.status === 'draft' && (
        <button
          type="button"
          className="button button--accent"
          disabled={post.submittedAt !== null}
          onClick={onSubmit}
        >
          {post.submittedAt ? 'Submitted for publishing' : 'Submit for publishing'}
        </button>
      )}
    </div>
  );
}
