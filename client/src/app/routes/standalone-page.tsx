import type { MarkdownTree } from '../../../../contract/markdown-tree';
import { bodyKey } from '../../../../contract/site-data';
import { PageMasthead } from '../../components/page-masthead';
import { PostBody } from '../../features/content/components/post-body';
import { Byline } from '../../features/content/components/byline';
import type { StandalonePage } from '../../features/content/types';
import { useDocumentHead } from '../../lib/document-head';
import { useParams } from '../../lib/router';
import { useSiteData } from '../../lib/site-data';
import NotFoundRoute from './not-found';

/**
 * A page of its own at `/<slug>` (About, Contact…: a page post whose slug is no screen's). Any
 * other one-word address the server has no page for is the 404 page, like an unknown article.
 */
export default function StandalonePageRoute() {
  const { slug = '' } = useParams();
  const { standalonePages = [], bodies = {}, teasers = [] } = useSiteData();
  const page = standalonePages.find((item) => item.slug === slug);
  const key = bodyKey('page', slug);
  const body = bodies[key];
  if (!page || !body) return <NotFoundRoute />;
  return <StandaloneScreen page={page} body={body} bodyKey={key} teaser={teasers.includes(key)} />;
}

function StandaloneScreen({
  page,
  body,
  bodyKey: key,
  teaser,
}: {
  page: StandalonePage;
  /** The whole body, or a members-only page's opening (`teaser`) for a non-member. */
  body: MarkdownTree;
  bodyKey: string;
  teaser: boolean;
}) {
  useDocumentHead(
    page.seoTitle ?? page.title,
    page.seoDescription ?? page.description,
    // Its feature photo, when it has one, is what a shared link shows.
    page.featureImage
      ? {
          type: 'website',
          image: { url: page.featureImage, alt: page.featureImageAlt ?? page.title },
        }
      : undefined,
  );
  return (
    <article className="article">
      <PageMasthead title={page.title} lede={page.description}>
        <Byline authors={page.authors} />
      </PageMasthead>
      <PostBody
        hero={page.featureImage ? { src: page.featureImage, alt: page.featureImageAlt } : undefined}
        body={body}
        bodyKey={key}
        teaser={teaser}
      />
    </article>
  );
}
