import { authorFeedPath, linkLabel, type Author } from '../../../../contract/authors';
import type { ArticleSummary } from '../../../../contract/content-types';
import { parseUploadUrl, srcsetOf } from '../../../../contract/images';
import { ExternalLink } from '../../components/external-link';
import { PageMasthead } from '../../components/page-masthead';
import { ArticleCardGrid } from '../../features/content/components/article-card';
import { useDocumentHead } from '../../lib/document-head';
import { useParams } from '../../lib/router';
import { useSiteData } from '../../lib/site-data';
import NotFoundRoute from './not-found';

/**
 * /authors/:slug: an author (picture, bio, links) and their published articles, newest first; an
 * unknown slug, or an author with nothing published, is the 404 page.
 */
export default function AuthorRoute() {
  const { slug = '' } = useParams();
  const { authors = [], articles = [] } = useSiteData();
  const author = authors.find((item) => item.slug === slug);
  if (!author) return <NotFoundRoute />;
  return <AuthorScreen author={author} articles={articles} />;
}

function AuthorScreen({
  author,
  articles,
}: {
  author: Author;
  articles: readonly ArticleSummary[];
}) {
  const description = author.bio || `Articles by ${author.name}, newest first.`;
  useDocumentHead(author.name, description);
  const picture = author.picture ? parseUploadUrl(author.picture) : null;
  return (
    <>
      <PageMasthead
        eyebrow="Author"
        title={author.name}
        lede={author.bio || undefined}
        before={
          author.picture && (
            <img
              className="author-picture"
              src={author.picture}
              {...(picture && { srcSet: srcsetOf(picture, 'webp'), sizes: '7rem' })}
              alt=""
              width={112}
              height={112}
            />
          )
        }
      >
        {author.links.length > 0 && (
          <ul className="author-links" aria-label={`${author.name} elsewhere`}>
            {author.links.map((link) => (
              <li key={link}>
                <ExternalLink href={link}>{linkLabel(link)}</ExternalLink>
              </li>
            ))}
          </ul>
        )}
      </PageMasthead>
      <div className="page-body topic-page">
        <section aria-labelledby="author-articles">
          <h2 id="author-articles">Articles</h2>
          <ArticleCardGrid articles={articles} firstPriority />
        </section>
        <p className="topic-page__feed">
          <a href={authorFeedPath(author.slug)}>Follow {author.name} by RSS</a>
        </p>
      </div>
    </>
  );
}
