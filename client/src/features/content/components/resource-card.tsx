import { displayHost } from '../display-host';
import type { Resource } from '../types';
import { useSectionColor } from '../../../lib/site-navigation';
import { ContentCard } from './content-card';
import { VisitIndicator } from './visit-indicator';

/** A free learning resource: the card opens the course site in a new tab. */
export function ResourceCard({ resource }: { resource: Resource }) {
  return (
    <ContentCard
      title={resource.title}
      href={resource.link}
      external
      image={resource.heroImage}
      tone={useSectionColor('resources')}
      eyebrow={displayHost(resource.link)}
      summary={resource.summary}
      footer={<VisitIndicator label="Visit Resource" />}
      headingLevel={3}
    />
  );
}
