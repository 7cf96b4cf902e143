import { useEffect, useState } from 'react';
import { useLocation } from '../../../lib/router';
import type { MarkdownTree } from '../../../../../contract/markdown-tree';
import { MembersOnlyBox } from '../../../components/members-only-box';
import { MarkdownContent } from '../../../components/markdown-content';
import { describeFailure } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { reloadSiteData } from '../../../lib/site-data';

type Loaded = { path: string; body: MarkdownTree } | { path: string; problem: string };

/**
 * Under a members-only article's opening, for a reader the server did not know as a member: how
 * to join. A member the page was drawn before (they joined or signed in here) gets the rest from
 * the server as soon as the session says so. A member who loads the page gets it whole from the
 * server and never sees this.
 */
export function MembersOnlyRest({ bodyKey, teaser }: { bodyKey: string; teaser: MarkdownTree }) {
  const { pathname } = useLocation();
  const { user } = useSession();
  const isMember = user?.isSubscribed === true;
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    if (!isMember) return;
    let cancelled = false;
    reloadSiteData(pathname).then(
      (data) => {
        const body = data.bodies?.[bodyKey];
        if (cancelled) return;
        if (body && !data.teasers?.includes(bodyKey)) setLoaded({ path: pathname, body });
        else setLoaded({ path: pathname, problem: 'Your membership is not active on this site.' });
      },
      (error: unknown) => {
        if (cancelled) return;
        setLoaded({
          path: pathname,
          problem: describeFailure(error, 'Could not reach the server. Try again.'),
        });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [pathname, bodyKey, isMember]);

  const shown = isMember && loaded?.path === pathname ? loaded : null;
  if (shown && 'body' in shown) return <MarkdownContent blocks={shown.body.children} />;
  return (
    <>
      <MarkdownContent blocks={teaser.children} />
      <MembersOnlyBox
        id="members-only-title"
        title="The rest is for members"
        waiting={isMember ? (shown?.problem ?? 'Loading the rest of the article…') : null}
      >
        This article is for members: they read it in full here. Everyone can read the opening above
        and every public article.
      </MembersOnlyBox>
    </>
  );
}
