import { displayHost } from '../display-host';
import type { Campaign } from '../types';
import { useSectionColor } from '../../../lib/site-navigation';
import { ContentCard } from './content-card';
import { VisitIndicator } from './visit-indicator';

/** A Direct Action campaign: the card opens the campaign's own page in a new tab. */
export function CampaignCard({
  campaign,
  headingLevel,
  featured,
}: {
  campaign: Campaign;
  headingLevel?: 2 | 3;
  featured?: boolean;
}) {
  return (
    <ContentCard
      title={campaign.title}
      href={campaign.externalLink}
      external
      image={campaign.heroImage}
      tone={useSectionColor('campaigns')}
      eyebrow={`Campaign · ${displayHost(campaign.externalLink)}`}
      summary={campaign.summary}
      footer={<VisitIndicator label="Visit Campaign" />}
      headingLevel={headingLevel}
      featured={featured}
      anchor={campaign.slug}
      readers={campaign.membersOnly && (campaign.readers ?? 'Members only')}
    />
  );
}
