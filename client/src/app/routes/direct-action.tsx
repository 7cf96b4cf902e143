import { PageMasthead } from '../../components/page-masthead';
import { CampaignCard } from '../../features/content/components/campaign-card';
import { NewestFirstList } from '../../features/content/components/newest-first-list';
import { EMPTY_CAMPAIGNS_TEXT, sectionIntros } from '../../features/content/sections';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteData } from '../../lib/site-data';

/** /direct-action: fundraising campaigns, each opening its own site in a new tab. */
export default function DirectActionRoute() {
  const { campaigns = [] } = useSiteData();
  useDocumentHead('Direct Action', sectionIntros['Direct Action']);
  return (
    <>
      <PageMasthead
        eyebrow="Campaigns"
        title="Direct Action"
        lede={sectionIntros['Direct Action']}
      />
      <div className="page-body">
        <NewestFirstList
          items={campaigns}
          emptyText={EMPTY_CAMPAIGNS_TEXT}
          renderItem={(campaign, featured) => (
            <CampaignCard campaign={campaign} featured={featured} />
          )}
        />
      </div>
    </>
  );
}
