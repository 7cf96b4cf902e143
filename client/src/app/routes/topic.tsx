import type { ArticleSummary, Campaign } from '../../../../contract/content-types';
import { topicFeedPath, type Topic } from '../../../../contract/topics';
import { BackLink, PageMasthead } from '../../components/page-masthead';
import { paths } from '../../config/paths';
import { ArticleCardGrid } from '../../features/content/components/article-card';
import { CampaignCard } from '../../features/content/components/campaign-card';
import { useDocumentHead } from '../../lib/document-head';
import { useParams } from '../../lib/router';
import { useSiteData } from '../../lib/site-data';
import NotFoundRoute from './not-found';

/** /topics/:slug: the articles and campaigns carrying a tag, newest first; unknown: the 404. */
export default function TopicRoute() {
  const { slug = '' } = useParams();
  const { topics = [], articles = [], campaigns = [] } = useSiteData();
  const topic = topics.find((item) => item.slug === slug);
  if (!topic) return <NotFoundRoute />;
  return <TopicScreen topic={topic} articles={articles} campaigns={campaigns} />;
}

function TopicScreen({
  topic,
  articles,
  campaigns,
}: {
  topic: Topic;
  articles: readonly ArticleSummary[];
  campaigns: readonly Campaign[];
}) {
  useDocumentHead(topic.name, topic.description);
  return (
    <>
      <PageMasthead
        eyebrow="Topic"
        title={topic.name}
        lede={topic.description}
        before={<BackLink to={paths.topics}>All topics</BackLink>}
      />
      <div className="page-body topic-page">
        {articles.length > 0 && (
          <section aria-labelledby="topic-articles">
            <h2 id="topic-articles">Articles</h2>
            <ArticleCardGrid articles={articles} firstPriority />
          </section>
        )}
        {campaigns.length > 0 && (
          <section aria-labelledby="topic-campaigns">
            <h2 id="topic-campaigns">Campaigns</h2>
            <ul className="card-grid" role="list">
              {campaigns.map((campaign) => (
                <li key={campaign.id}>
                  <CampaignCard campaign={campaign} headingLevel={3} />
                </li>
              ))}
            </ul>
          </section>
        )}
        <p className="topic-page__feed">
          <a href={topicFeedPath(topic.slug)}>Follow {topic.name} by RSS</a>
        </p>
      </div>
    </>
  );
}
