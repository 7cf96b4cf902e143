import type { Revision } from './post-api';
import { formatLocal } from './post-form';

/** A change to a post waiting for the staff member's confirmation. */
export type PendingChange =
  | { change: 'publish' }
  | { change: 'schedule'; at: string }
  | { change: 'unpublish' }
  | { change: 'restore'; revision: Revision };

/** The question the confirmation asks: what the change does, to which address. */
export function describePending(pending: PendingChange, title: string, path: string): string {
  const address = `${window.location.origin}${path}`;
  switch (pending.change) {
    case 'publish':
      return `Publish “${title}” now at ${address}?`;
    case 'schedule':
      return `Schedule “${title}” to go live at ${address} on ${formatLocal(pending.at)}?`;
    case 'unpublish':
      return `Take “${title}” off the site? ${address} will answer “gone”.`;
    case 'restore':
      return `Restore version ${pending.revision.version} of “${title}”? What is there now stays in the history.`;
  }
}
