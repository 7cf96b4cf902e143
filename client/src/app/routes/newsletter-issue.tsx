import type { ReactNode } from 'react';

import type { ArticleSummary } from '../../../../contract/content-types';
import type { NewsletterListing } from '../../../../contract/newsletters';
import { bodyKey } from '../../../../contract/site-data';
import { MarkdownContent } from '../../components/markdown-content';
import { BackLink, PageMasthead } from '../../components/page-masthead';
import { paths } from '../../config/paths';
import { ArticleCardGrid } from '../../features/content/components/article-card';
import { Byline } from '../../features/content/components/byline';
import { MembersOnlyIssue } from '../../features/newsletter/members-only-issue';
import { NewsletterSignup } from '../../features/newsletter/newsletter-signup';
import { useDocumentHead } from '../../lib/document-head';
import { formatDate } from '../../lib/format-date';
import { useSiteData } from '../../lib/site-data';
import NotFoundRoute from './not-found';

/**
 * /newsletter/:slug: an issue with its article cards. A public issue's body is in the page; a
 * members-only issue shows its summary and how to join, and members its body from the server.
 * An unknown slug is the 404 page.
 */
export function NewsletterIssue({ slug }: { slug: string }) {
  const { newsletters = [], articles = [], bodies = {} } = useSiteData();
  const issue = newsletters.find((item) => item.slug === slug);
  if (!issue) return <NotFoundRoute />;
  const body = bodies[bodyKey('newsletter', slug)];
  return (
    <IssueScreen
      issue={issue}
      articles={articles}
      body={body ? <MarkdownContent blocks={body.children} /> : null}
    />
  );
}

function IssueScreen({
  issue,
  articles,
  body,
}: {
  issue: NewsletterListing;
  articles: readonly ArticleSummary[];
  body: ReactNode;
}) {
  useDocumentHead(issue.title, issue.summary, {
    type: 'article',
    publishedTime: issue.publishedAt,
  });
  const cards = issue.articles.flatMap((slug) => articles.filter((item) => item.slug === slug));
  return (
    <>
      <article className="article newsletter-issue">
        <PageMasthead
          eyebrow={issue.membersOnly ? 'Newsletter · Members only' : 'Newsletter'}
          title={issue.title}
          lede={issue.summary}
          before={<BackLink to={paths.newsletter}>All issues</BackLink>}
        >
          <Byline authors={issue.authors} />
          <p className="article__meta">
            <time dateTime={issue.publishedAt}>{formatDate(issue.publishedAt)}</time>
          </p>
        </PageMasthead>
        <div className="prose article__body">{body ?? <MembersOnlyIssue slug={issue.slug} />}</div>
      </article>
      {cards.length > 0 && (
        <aside className="more" aria-labelledby="issue-articles-title">
          <h2 id="issue-articles-title">In this issue</h2>
          <ArticleCardGrid articles={cards} />
        </aside>
      )}
      <NewsletterSignup heading="Get the next issue by mail" />
    </>
  );
}
