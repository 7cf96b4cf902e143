import { ScreenWithIntro } from '../../components/screen-with-intro';
import { ResourceGroupSection } from '../../features/content/components/resource-group-section';
import { useSiteData } from '../../lib/site-data';

/** /empowerment: free learning resources in three groups. */
export default function EmpowermentRoute() {
  const { resourceGroups = [] } = useSiteData();
  return (
    <ScreenWithIntro screen="empowerment" title="Empowerment" eyebrow="Free learning">
      {resourceGroups.map((group) => (
        <ResourceGroupSection key={group.id} group={group} />
      ))}
    </ScreenWithIntro>
  );
}
