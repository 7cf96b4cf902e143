import { ScreenWithIntro } from '../../components/screen-with-intro';
import { BoycottCard } from '../../features/content/components/boycott-card';
import { LazyCommentsSection } from '../../features/comments/lazy-comments-section';
import { useSiteData } from '../../lib/site-data';
import { bodyKey } from '../../../../contract/site-data';

/**
 * The boycotts' section (the samples' /collective, Collective Action): why each began, what to
 * support instead and what happened, and the story behind one when it has one. `name`: the
 * section's.
 */
export default function CollectiveRoute({ name }: { name: string }) {
  const { boycotts = [], bodies = {}, teasers = [], locks = {}, comments = {} } = useSiteData();
  return (
    <ScreenWithIntro screen="collective" title={name} eyebrow="Boycotts">
      <div className="boycott-list">
        {boycotts.map((boycott) => {
          const said = comments[boycott.id];
          const key = bodyKey('boycott', boycott.slug);
          return (
            <BoycottCard
              key={boycott.id}
              boycott={boycott}
              story={bodies[key]}
              teaser={teasers.includes(key)}
              lock={locks[key]}
              comments={said && <LazyCommentsSection postId={boycott.id} initial={said} folded />}
            />
          );
        })}
      </div>
    </ScreenWithIntro>
  );
}
