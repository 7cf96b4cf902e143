import type { ArticleSummary } from '../../../../contract/content-types';
import type { MarkdownTree } from '../../../../contract/markdown-tree';
import { parseUploadUrl } from '../../../../contract/images';
import { bodyKey, type PostComments } from '../../../../contract/site-data';
import { topicPath, topicSlug } from '../../../../contract/topics';
import { LazyCommentsSection } from '../../features/comments/lazy-comments-section';
import { NewsletterSignup } from '../../features/newsletter/newsletter-signup';
import { Link, useParams } from '../../lib/router';
import { BackLink, PageMasthead } from '../../components/page-masthead';
import { ArticleCardGrid } from '../../features/content/components/article-card';
import { PostBody } from '../../features/content/components/post-body';
import { Byline } from '../../features/content/components/byline';
import type { ArticleCategory } from '../../features/content/types';
import { useDocumentHead } from '../../lib/document-head';
import { formatDate } from '../../lib/format-date';
import { useSiteData } from '../../lib/site-data';
import { toneStyle, useArticleSectionPaths, useSectionColor } from '../../lib/site-navigation';
import NotFoundRoute from './not-found';

/** /<section>/:slug (/health/:slug…); an unknown slug is the 404 page. */
export default function ArticleRoute({ category }: { category: ArticleCategory }) {
  const { slug = '' } = useParams();
  const { articles = [], bodies = {}, teasers = [], comments = {} } = useSiteData();
  const article = articles.find((item) => item.category === category && item.slug === slug);
  const key = article && bodyKey('article', article.slug);
  const body = key && bodies[key];
  if (!article || !key || !body) return <NotFoundRoute />;
  return (
    <ArticleScreen
      article={article}
      articles={articles}
      body={body}
      bodyKey={key}
      teaser={teasers.includes(key)}
      comments={comments[article.id]}
    />
  );
}

function ArticleScreen({
  article,
  articles,
  body,
  bodyKey: key,
  teaser,
  comments,
}: {
  article: ArticleSummary;
  articles: readonly ArticleSummary[];
  /** The whole body, or a restricted article's opening (`teaser`) for a reader it keeps out. */
  body: MarkdownTree;
  bodyKey: string;
  teaser: boolean;
  /** Left out when comments are off. */
  comments: PostComments | undefined;
}) {
  // The server sends the article first, then those to read next (by shared topics and section).
  const more = articles.filter((item) => item.id !== article.id);
  const sectionPathOf = useArticleSectionPaths();
  const tone = useSectionColor('articles', article.category);
  useDocumentHead(article.seoTitle ?? article.title, article.seoDescription ?? article.summary, {
    type: 'article',
    publishedTime: article.publishedAt,
    section: article.category,
    // Its feature photo, when it has one (an upload), is what a shared link shows.
    ...(parseUploadUrl(article.heroImage) && {
      image: { url: article.heroImage, alt: article.heroAlt ?? article.title },
    }),
  });
  return (
    <>
      <article className="article" style={toneStyle(tone)}>
        <PageMasthead
          title={article.title}
          lede={article.summary}
          before={
            <BackLink to={sectionPathOf(article.category)}>Back to {article.category}</BackLink>
          }
        >
          <Byline authors={article.authors} />
          <p className="article__meta">
            {article.membersOnly && (
              <>
                <span>{article.readers ?? 'Members only'}</span>
                <span aria-hidden="true"> · </span>
              </>
            )}
            <time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>
            <span aria-hidden="true"> · </span>
            <span>{article.readingMinutes} min read</span>
          </p>
          {article.tags && article.tags.length > 0 && (
            <ul className="article__topics" aria-label="Topics">
              {article.tags.map((tag) => (
                <li key={tag}>
                  <Link to={topicPath(topicSlug(tag))}>{tag}</Link>
                </li>
              ))}
            </ul>
          )}
        </PageMasthead>
        <PostBody
          hero={{ src: article.heroImage, alt: article.heroAlt }}
          body={body}
          bodyKey={key}
          teaser={teaser}
        />
      </article>
      {comments && <LazyCommentsSection key={article.id} postId={article.id} initial={comments} />}
      <NewsletterSignup heading="Liked this? Get the newsletter" />
      {more.length > 0 && (
        <aside className="more" aria-labelledby="more-title">
          <h2 id="more-title">Related reading</h2>
          <ArticleCardGrid articles={more} />
        </aside>
      )}
    </>
  );
}
