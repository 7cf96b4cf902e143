import { useEffect, useState } from 'react';
import { useLocation } from '../../../lib/router';
import type { MarkdownTree } from '../../../../../contract/markdown-tree';
import type { PostLock } from '../../../../../contract/site-data';
import { MembersOnlyBox } from '../../../components/members-only-box';
import { MarkdownContent } from '../../../components/markdown-content';
import { describeFailure } from '../../../lib/api-client';
import { useSession } from '../../../lib/session/session-context';
import { reloadSiteData } from '../../../lib/site-data';
import { restIsFor } from '../reading-lock';

type Loaded = { path: string; body: MarkdownTree } | { path: string; problem: string };

/**
 * Under a restricted post's opening, for a reader the server did not let read the rest: what
 * unlocks it (`lock`) and how. A reader the page was drawn before (they joined or signed in here)
 * gets the rest from the server as soon as the session says they may: a member of any tier for a
 * members' post (told while it loads); a signed-in reader of a post for signed-in readers or a
 * member of a tier's post, asked quietly, since the session does not say their address or tier.
 * A reader who loads the page and may read it gets it whole from the server and never sees this.
 */
export function MembersOnlyRest({
  bodyKey,
  teaser,
  lock,
}: {
  bodyKey: string;
  teaser: MarkdownTree;
  lock: PostLock | undefined;
}) {
  const { pathname } = useLocation();
  const { user } = useSession();
  const visibility = lock?.rule.visibility ?? 'members';
  const isMember = user?.isSubscribed === true;
  // Whether the session says the server may now give the rest, and whether it surely will.
  const mayHaveIt = visibility === 'registered' ? Boolean(user?.email) : isMember;
  const expected = visibility === 'members' && isMember;
  const [loaded, setLoaded] = useState<Loaded | null>(null);

  useEffect(() => {
    if (!mayHaveIt) return;
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
  }, [pathname, bodyKey, mayHaveIt]);

  const shown = mayHaveIt && loaded?.path === pathname ? loaded : null;
  if (shown && 'body' in shown) return <MarkdownContent blocks={shown.body.children} />;
  const readers = restIsFor(lock);
  return (
    <>
      <MarkdownContent blocks={teaser.children} />
      <MembersOnlyBox
        id="members-only-title"
        title={`The rest is for ${readers}`}
        waiting={expected ? (shown?.problem ?? 'Loading the rest of the article…') : null}
        lock={lock}
      >
        This article is for {readers}
        {visibility === 'registered' && ', free members included'}: they read it in full here.
        Everyone can read the opening above and every public article.
      </MembersOnlyBox>
    </>
  );
}
