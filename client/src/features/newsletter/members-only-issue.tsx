import { useEffect, useState } from 'react';
import type { MarkdownTree } from '../../../../contract/markdown-tree';
import { MembersOnlyBox } from '../../components/members-only-box';
import { MarkdownContent } from '../../components/markdown-content';
import { describeFailure } from '../../lib/api-client';
import { useSession } from '../../lib/session/session-context';
import { getIssueBody } from './newsletter-api';

type Loaded = { slug: string; body: MarkdownTree } | { slug: string; problem: string };

/**
 * A members-only issue's body. Its text is in no page and no script: a member's browser asks the
 * server for it once the session says they are a member. Everyone else (and the prerendered page,
 * before the session is known) sees what the issue is for and how to join.
 */
export function MembersOnlyIssue({ slug }: { slug: string }) {
  const { user } = useSession();
  const isMember = user?.isSubscribed === true;
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    if (!isMember) return;
    const controller = new AbortController();
    getIssueBody(slug, controller.signal).then(
      ({ body }) => setLoaded({ slug, body }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoaded({
          slug,
          problem: describeFailure(error, 'Could not reach the server. Try again.'),
        });
      },
    );
    return () => controller.abort();
  }, [slug, isMember]);

  const shown = isMember && loaded?.slug === slug ? loaded : null;
  if (shown && 'body' in shown) return <MarkdownContent blocks={shown.body.children} />;

  return (
    <MembersOnlyBox
      id="newsletter-locked-title"
      title="For members"
      waiting={isMember ? (shown?.problem ?? 'Loading the issue…') : null}
    >
      This issue is for members: they read it in full here and get it by mail. Everyone can read the
      summary above and every public issue.
    </MembersOnlyBox>
  );
}
