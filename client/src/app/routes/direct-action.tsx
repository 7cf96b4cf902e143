import { PageMasthead } from '../../components/page-masthead';
import { CampaignCard } from '../../features/content/components/campaign-card';
import { NewestFirstList } from '../../features/content/components/newest-first-list';
import { PostStory } from '../../features/content/components/post-story';
import { LazyCommentsSection } from '../../features/comments/lazy-comments-section';
import { bodyKey } from '../../../../contract/site-data';
import { EMPTY_CAMPAIGNS_TEXT } from '../../features/content/sections';
import { useSiteNavigation } from '../../lib/site-navigation';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteData } from '../../lib/site-data';

/**
 * The campaigns' section (the samples' /direct-action, Direct Action): fundraising campaigns,
 * each opening its own site in a new tab, and the story behind it under its card when it has
 * one. `name`: the section's.
 */
export default function DirectActionRoute({ name }: { name: string }) {
  const { campaigns = [], bodies = {}, teasers = [], locks = {}, comments = {} } = useSiteData();
  // The intro is the publisher's: the description of the section that lists the campaigns.
  const intro =
    useSiteNavigation().sections.find((section) => section.lists === 'campaigns')?.description ??
    '';
  useDocumentHead(name, intro);
  return (
    <>
      <PageMasthead eyebrow="Campaigns" title={name} lede={intro} />
      <div className="page-body">
        <NewestFirstList
          items={campaigns}
          emptyText={EMPTY_CAMPAIGNS_TEXT}
          renderItem={(campaign, featured) => {
            const key = bodyKey('campaign', campaign.slug);
            const story = bodies[key];
            const card = <CampaignCard campaign={campaign} featured={featured} />;
            const said = comments[campaign.id];
            if (!story && !said) return card;
            return (
              <div className="with-story">
                {card}
                {story && (
                  <PostStory body={story} teaser={teasers.includes(key)} lock={locks[key]} />
                )}
                {said && <LazyCommentsSection postId={campaign.id} initial={said} folded />}
              </div>
            );
          }}
        />
      </div>
    </>
  );
}
