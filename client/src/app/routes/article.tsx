import { use } from 'react';
import { articleBodies, articles } from 'virtual:content/articles';
import { NewsletterSignup } from '../../features/newsletter/newsletter-signup';
import { Link, useParams } from 'react-router-dom';
import { PageMasthead } from '../../components/page-masthead';
import { ArticleCard } from '../../features/content/components/article-card';
import { ContentImage } from '../../features/content/components/content-image';
import { MarkdownContent } from '../../components/markdown-content';
import { sectionTones } from '../../features/content/sections';
import type { ArticleCategory } from '../../features/content/types';
import { useDocumentHead } from '../../lib/document-head';
import { formatDate } from '../../lib/format-date';
import { categoryPath } from '../../config/paths';
import NotFoundRoute from './not-found';

const MORE_ARTICLES = 3;

type Body = Awaited<ReturnType<(typeof articleBodies)[string]>>['default'];
/** One promise per body, so a re-render while it loads waits on the same chunk. */
const bodies = new Map<string, Promise<Body>>();
function loadBody(slug: string, load: (typeof articleBodies)[string]): Promise<Body> {
  let body = bodies.get(slug);
  if (!body) {
    body = load().then((module) => module.default);
    bodies.set(slug, body);
  }
  return body;
}

/** /health/:slug and /wealth/:slug; an unknown slug is the 404 page. */
export default function ArticleRoute({ category }: { category: ArticleCategory }) {
  const { slug = '' } = useParams();
  const article = articles.find((item) => item.category === category && item.slug === slug);
  const load = article && articleBodies[article.slug];
  if (!article || !load) return <NotFoundRoute />;
  return <ArticleScreen article={article} load={load} />;
}

function ArticleScreen({
  article,
  load,
}: {
  article: (typeof articles)[number];
  load: (typeof articleBodies)[string];
}) {
  const body = use(loadBody(article.slug, load));
  const more = articles
    .filter((item) => item.category === article.category && item.id !== article.id)
    .slice(0, MORE_ARTICLES);
  useDocumentHead(article.title, article.summary, {
    type: 'article',
    publishedTime: article.publishedAt,
    section: article.category,
  });
  return (
    <>
      <article className={`article tone-${sectionTones[article.category]}`}>
        <PageMasthead
          title={article.title}
          lede={article.summary}
          before={
            <p className="back-link">
              <Link to={categoryPath(article.category)}>
                <span aria-hidden="true">← </span>Back to {article.category}
              </Link>
            </p>
          }
        >
          <p className="article__meta">
            <time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>
            <span aria-hidden="true"> · </span>
            <span>{article.readingMinutes} min read</span>
          </p>
        </PageMasthead>
        <div className="article__hero">
          <ContentImage src={article.heroImage} priority />
        </div>
        <div className="prose article__body">
          <MarkdownContent blocks={body.children} />
        </div>
      </article>
      <NewsletterSignup heading="Liked this? Get the newsletter" />
      {more.length > 0 && (
        <aside className="more" aria-labelledby="more-title">
          <h2 id="more-title">More in {article.category}</h2>
          <ul className="card-grid" role="list">
            {more.map((item) => (
              <li key={item.id}>
                <ArticleCard article={item} headingLevel={3} />
              </li>
            ))}
          </ul>
        </aside>
      )}
    </>
  );
}
