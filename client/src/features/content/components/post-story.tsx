import type { MarkdownTree } from '../../../../../contract/markdown-tree';
import { MarkdownContent } from '../../../components/markdown-content';
import { paths } from '../../../config/paths';
import { Link } from '../../../lib/router';

/**
 * The story behind a campaign or a boycott (its body), folded under its card. A members-only
 * story drawn for someone else has only its opening (`teaser`), and under it who reads the rest.
 */
export function PostStory({ body, teaser }: { body: MarkdownTree; teaser: boolean }) {
  return (
    <details className="post-story">
      <summary>The story behind it</summary>
      <div className="prose post-story__body">
        <MarkdownContent blocks={body.children} />
        {teaser && (
          <p className="post-story__members">
            <span className="members-badge">Members only</span> The rest of this story is for
            members: <Link to={paths.earlyAccess}>join</Link> or{' '}
            <Link to={paths.login}>sign in</Link> to read it.
          </p>
        )}
      </div>
    </details>
  );
}
