import type { PostJson } from '../../../../../contract/posts';
import type { PendingChange } from './pending-change';

/**
 * The post's buttons: save (a published post's "Publish changes", asking first when it moves the
 * post's address), preview, and what the staff member's role allows: publish and unpublish for
 * editors and owners ("Publish now" and "Cancel schedule" for a scheduled post), "Submit for
 * publishing" for writers. On a phone they stay at the foot of the screen (editor.css).
 */
export function PublishActions({
  post,
  untitled,
  mayPublish,
  address,
  onSave,
  onPreview,
  onAsk,
  onSubmit,
}: {
  post: PostJson | null;
  /** A new post with no title yet: nothing to publish. */
  untitled: boolean;
  mayPublish: boolean;
  /** Where the post is seen with the changes as typed (null: it has no address yet). */
  address: string | null;
  onSave: () => void;
  onPreview: () => void;
  onAsk: (change: PendingChange) => void;
  onSubmit: () => void;
}) {
  const live = post !== null && post.status !== 'draft';
  const scheduled = post?.status === 'scheduled';
  // A published post's old address redirects to its new one (the server keeps it): say so first.
  const movesTo = post?.status === 'published' && address && address !== post.path ? address : null;
  return (
    <div className="button-row post-editor__actions" role="group" aria-label="Save and publish">
      {!live && (
        <button type="button" className="button" onClick={onSave}>
          Save draft
        </button>
      )}
      {live && mayPublish && (
        <button
          type="button"
          className="button button--accent"
          onClick={() =>
            post && movesTo ? onAsk({ change: 'move', from: post.path, to: movesTo }) : onSave()
          }
        >
          {scheduled ? 'Save changes' : 'Publish changes'}
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
      {scheduled && mayPublish && (
        <button
          type="button"
          className="button button--accent"
          onClick={() => onAsk({ change: 'publish-now' })}
        >
          Publish now
        </button>
      )}
      {live && mayPublish && (
        <button
          type="button"
          className="button button--outline"
          onClick={() => onAsk({ change: scheduled ? 'cancel-schedule' : 'unpublish' })}
        >
          {scheduled ? 'Cancel schedule' : 'Unpublish'}
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
