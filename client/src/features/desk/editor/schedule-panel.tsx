import { useState } from 'react';
import type { PostJson } from '../../../../../contract/posts';
import type { PendingChange } from './pending-change';
import { formatLocal, localInputValue, timeZone } from './post-form';

/**
 * When a post that is not live yet goes live, in the staff member's own time zone. Drawn for those
 * who may publish, until the post is published; what was typed stays while the page is open.
 */
export function SchedulePanel({
  post,
  mayPublish,
  onAsk,
  onProblem,
}: {
  post: PostJson | null;
  mayPublish: boolean;
  onAsk: (change: PendingChange) => void;
  onProblem: (message: string) => void;
}) {
  const [scheduleAt, setScheduleAt] = useState('');
  if (!mayPublish || post?.status === 'published') return null;
  const scheduled = post?.status === 'scheduled' && post.publishedAt ? post.publishedAt : null;
  return (
    <div className="post-editor__schedule">
      <label className="desk-field">
        <span>Go live at (your time, {timeZone()})</span>
        <input
          type="datetime-local"
          value={scheduleAt || (scheduled ? localInputValue(scheduled) : '')}
          onChange={(event) => setScheduleAt(event.target.value)}
        />
      </label>
      <button
        type="button"
        className="button button--outline"
        disabled={!scheduleAt}
        onClick={() => {
          const at = new Date(scheduleAt);
          if (Number.isNaN(at.getTime()) || at.getTime() <= Date.now()) {
            onProblem('Choose a time in the future to schedule it.');
            return;
          }
          onAsk({ change: 'schedule', at: at.toISOString() });
        }}
      >
        Schedule
      </button>
      {scheduled && <p className="desk__small">Scheduled for {formatLocal(scheduled)}.</p>}
    </div>
  );
}
