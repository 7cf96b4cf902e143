import { MarkdownContent } from '../../components/markdown-content';
import { PageMasthead } from '../../components/page-masthead';
import { policyPages } from '../../config/paths';
import { ArticleCard } from '../../features/content/components/article-card';
import { CampaignCard } from '../../features/content/components/campaign-card';
import { ContentCard } from '../../features/content/components/content-card';
import type { PageCopy, RelatedItem } from '../../features/content/types';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { useSectionColor, useSpecialListPath } from '../../lib/site-navigation';
import { useSiteData } from '../../lib/site-data';
import NotFoundRoute from './not-found';

/**
 * A page the operator writes in content/pages/<slug>.md: the topic pages (an intro, then related
 * articles, campaigns and resources) and the policies (privacy, terms, refunds).
 */
export default function ContentPageRoute({ slug }: { slug: string }) {
  const page = useSiteData().pages?.[slug];
  if (!page) return <NotFoundRoute />;
  return <ContentPage page={page} slug={slug} />;
}

function ContentPage({ page, slug }: { page: PageCopy; slug: string }) {
  const siteName = useSiteName();
  useDocumentHead(page.title, page.description);
  const isPolicy = policyPages.some((policy) => policy.slug === slug);
  return (
    <>
      <PageMasthead
        eyebrow={isPolicy ? 'Site policy' : 'Topic'}
        title={page.title}
        lede={page.description}
      />
      <div className="page-body">
        {page.template && (
          <p className="template-note">
            <strong>Template.</strong> This page is the wording Cohort ships with: this site&apos;s
            operator has yet to adapt it.
          </p>
        )}
        <div className="prose intro">
          <MarkdownContent blocks={page.body.children} />
        </div>
        {page.related && (
          <section className="related" aria-labelledby="related-title">
            <h2 id="related-title">Related on {siteName}</h2>
            <ul className="card-grid" role="list">
              {page.related.map((item) => (
                <li key={relatedKey(item)}>
                  <RelatedCard item={item} />
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </>
  );
}

function relatedKey(item: RelatedItem): string {
  if (item.kind === 'article') return item.article.slug;
  if (item.kind === 'campaign') return item.campaign.slug;
  return item.group.slug;
}

function RelatedCard({ item }: { item: RelatedItem }) {
  const resourcesTone = useSectionColor('resources');
  const resourcesPath = useSpecialListPath('resources');
  switch (item.kind) {
    case 'article':
      return <ArticleCard article={item.article} headingLevel={3} />;
    case 'campaign':
      return <CampaignCard campaign={item.campaign} headingLevel={3} />;
    case 'resource-group':
      return (
        <ContentCard
          title={item.group.category}
          href={`${resourcesPath}#${item.group.slug}`}
          image={item.group.heroImage}
          tone={resourcesTone}
          eyebrow={`${item.group.resourceCount} free resources`}
          summary={item.group.description}
          headingLevel={3}
        />
      );
  }
}
