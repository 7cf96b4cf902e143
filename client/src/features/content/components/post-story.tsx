import type { MarkdownTree } from '../../../../../contract/markdown-tree';
import type { PostLock } from '../../../../../contract/site-data';
import { MarkdownContent } from '../../../components/markdown-content';
import { paths } from '../../../config/paths';
import { Link } from '../../../lib/router';
import { lockLabel, restIsFor } from '../reading-lock';

/**
 * The story behind a campaign or a boycott (its body), folded under its card. A restricted story
 * drawn for a reader who may not read it has only its opening (`teaser`), and under it who reads
 * the rest (`lock`) and how to.
 */
export function PostStory({
  body,
  teaser,
  lock,
}: {
  body: MarkdownTree;
  teaser: boolean;
  lock?: PostLock | undefined;
}) {
  const registered = lock?.rule.visibility === 'registered';
  return (
    <details className="post-story">
      <summary>The story behind it</summary>
      <div className="prose post-story__body">
        <MarkdownContent blocks={body.children} />
        {teaser && (
          <p className="post-story__members">
            <span className="members-badge">{lockLabel(lock)}</span> The rest of this story is for{' '}
            {restIsFor(lock)}:{' '}
            {registered ? (
              <Link to={paths.register}>sign up free</Link>
            ) : (
              <Link to={paths.earlyAccess}>join</Link>
            )}{' '}
            or <Link to={paths.login}>sign in</Link> to read it.
          </p>
        )}
      </div>
    </details>
  );
}
