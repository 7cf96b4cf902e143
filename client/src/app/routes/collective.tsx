import { ScreenWithIntro } from '../../components/screen-with-intro';
import { BoycottCard } from '../../features/content/components/boycott-card';
import { LazyCommentsSection } from '../../features/comments/lazy-comments-section';
import { useSiteData } from '../../lib/site-data';
import { bodyKey } from '../../../../contract/site-data';

/**
 * /collective: boycotts, why they began, what to support instead and what happened, and the story
 * behind one when it has one.
 */
export default function CollectiveRoute() {
  const { boycotts = [], bodies = {}, teasers = [], comments = {} } = useSiteData();
  return (
    <ScreenWithIntro screen="collective" title="Collective Action" eyebrow="Boycotts">
      <div className="boycott-list">
        {boycotts.map((boycott) => {
          const said = comments[boycott.id];
          return (
            <BoycottCard
              key={boycott.id}
              boycott={boycott}
              story={bodies[bodyKey('boycott', boycott.slug)]}
              teaser={teasers.includes(bodyKey('boycott', boycott.slug))}
              comments={said && <LazyCommentsSection postId={boycott.id} initial={said} folded />}
            />
          );
        })}
      </div>
    </ScreenWithIntro>
  );
}
