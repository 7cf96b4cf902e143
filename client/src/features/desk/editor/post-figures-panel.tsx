import type { PostJson } from '../../../../../contract/posts';
import { Link } from '../../../lib/router';
import { fetchPostAnalytics } from '../analytics-api';
import { useDeskData } from '../use-desk-data';

/** The days the editor's figures cover. */
const DAYS = 30;

/**
 * A published post's own figures on its editor page (docs/analytics.md): views and visitors over
 * the last 30 days, and for owners and editors the signups and paid conversions credited to it.
 */
export function PostFiguresPanel({ post }: { post: PostJson }) {
  const [figures] = useDeskData(`post-figures-${post.id}`, (signal) =>
    fetchPostAnalytics(post.id, DAYS, signal),
  );
  return (
    <section className="post-editor__figures" aria-labelledby="figures-title">
      <h2 id="figures-title">Last {DAYS} days</h2>
      {figures.state === 'loading' && <p className="desk__small">Loading…</p>}
      {figures.state === 'error' && (
        <p className="desk__small">The figures could not be read just now.</p>
      )}
      {figures.state === 'ready' && (
        <dl>
          <Figure label="Views" value={figures.data.totals.views} />
          <Figure label="Visitors" value={figures.data.totals.visitors} />
          {figures.data.totals.signups !== null && (
            <Figure label="Signups" value={figures.data.totals.signups} />
          )}
          {figures.data.totals.paidConversions !== null && (
            <Figure label="Paid conversions" value={figures.data.totals.paidConversions} />
          )}
        </dl>
      )}
      <p className="desk__small">
        <Link to={`/desk/analytics?range=${DAYS}`}>All posts’ figures</Link>
      </p>
    </section>
  );
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value.toLocaleString('en-US')}</dd>
    </div>
  );
}
