import { ScreenWithIntro } from '../../components/screen-with-intro';
import { ResourceGroupSection } from '../../features/content/components/resource-group-section';
import { useSiteData } from '../../lib/site-data';

/**
 * The resources' section (the samples' /empowerment, Empowerment): free learning resources in
 * groups. `name`: the section's.
 */
export default function EmpowermentRoute({ name }: { name: string }) {
  const { resourceGroups = [] } = useSiteData();
  return (
    <ScreenWithIntro screen="empowerment" title={name} eyebrow="Free learning">
      {resourceGroups.map((group) => (
        <ResourceGroupSection key={group.id} group={group} />
      ))}
    </ScreenWithIntro>
  );
}
