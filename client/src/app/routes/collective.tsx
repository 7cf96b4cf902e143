import { ScreenWithIntro } from '../../components/screen-with-intro';
import { BoycottCard } from '../../features/content/components/boycott-card';
import { useSiteData } from '../../lib/site-data';
import { bodyKey } from '../../../../contract/site-data';

/**
 * /collective: boycotts, why they began, what to support instead and what happened, and the story
 * behind one when it has one.
 */
export default function CollectiveRoute() {
  const { boycotts = [], bodies = {}, teasers = [] } = useSiteData();
  return (
    <ScreenWithIntro screen="collective" title="Collective Action" eyebrow="Boycotts">
      <div className="boycott-list">
        {boycotts.map((boycott) => (
          <BoycottCard
            key={boycott.id}
            boycott={boycott}
            story={bodies[bodyKey('boycott', boycott.slug)]}
            teaser={teasers.includes(bodyKey('boycott', boycott.slug))}
          />
        ))}
      </div>
    </ScreenWithIntro>
  );
}
