import { ScreenWithIntro } from '../../components/screen-with-intro';
import { BoycottCard } from '../../features/content/components/boycott-card';
import { useSiteData } from '../../lib/site-data';

/** /collective: boycotts, why they began, what to support instead and what happened. */
export default function CollectiveRoute() {
  const { boycotts = [] } = useSiteData();
  return (
    <ScreenWithIntro screen="collective" title="Collective Action" eyebrow="Boycotts">
      <div className="boycott-list">
        {boycotts.map((boycott) => (
          <BoycottCard key={boycott.id} boycott={boycott} />
        ))}
      </div>
    </ScreenWithIntro>
  );
}
