import type { PostJson } from '../../../../../contract/posts';
import type { Revision } from './post-api';
import { formatLocal } from './post-form';

/** A change to a post waiting for the staff member's confirmation. */
export type PendingChange =
  | { change: 'publish' }
  /** A scheduled post, published now instead of at its time. */
  | { change: 'publish-now' }
  | { change: 'schedule'; at: string }
  | { change: 'unpublish' }
  /** A scheduled post back to a draft: it does not go live at its time. */
  | { change: 'cancel-schedule' }
  /** "Publish changes" on a published post whose address they change: the old one redirects. */
  | { change: 'move'; from: string; to: string }
  | { change: 'restore'; revision: Revision };

/** The post as the question names it: where it is, whether it is live, when it goes live. */
type PostState = Pick<PostJson, 'path' | 'status' | 'publishedAt'>;

/** The question the confirmation asks: what the change does, to which address. */
export function describePending(pending: PendingChange, title: string, post: PostState): string {
  const origin = window.location.origin;
  const address = `${origin}${post.path}`;
  const when = post.publishedAt ? formatLocal(post.publishedAt) : 'its time';
  switch (pending.change) {
    case 'publish':
      return `Publish “${title}” now at ${address}?`;
    case 'publish-now':
      return `Publish “${title}” now at ${address}, instead of on ${when}?`;
    case 'schedule':
      return `Schedule “${title}” to go live at ${address} on ${formatLocal(pending.at)}?`;
    case 'unpublish':
      return `Take “${title}” off the site? ${address} will answer “gone”.`;
    case 'cancel-schedule':
      return `Cancel the schedule? “${title}” will not go live on ${when}: it becomes a draft again.`;
    case 'move':
      return (
        `Publish the changes to “${title}” at its new address, ${origin}${pending.to}? ` +
        `The old address, ${origin}${pending.from}, will redirect to the new one.`
      );
    case 'restore': {
      const restore = `Restore version ${pending.revision.version} of “${title}”?`;
      const kept = 'What is there now stays in the history.';
      if (post.status === 'published') {
        return `${restore} The post is live: version ${pending.revision.version} goes live at once at ${address}. ${kept}`;
      }
      if (post.status === 'scheduled') {
        return `${restore} The post is scheduled: version ${pending.revision.version} is what goes live on ${when}. ${kept}`;
      }
      return `${restore} ${kept}`;
    }
  }
}

/** The confirmation's button: the change, in the words of the button that asked for it. */
export function confirmLabel(pending: PendingChange): string {
  switch (pending.change) {
    case 'publish-now':
      return 'Yes, publish now';
    case 'cancel-schedule':
      return 'Yes, cancel the schedule';
    case 'move':
      return 'Yes, publish changes';
    default:
      return `Yes, ${pending.change}`;
  }
}
