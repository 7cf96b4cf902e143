import { Link } from '../../lib/router';
import { PageMasthead } from '../../components/page-masthead';
import { NewsletterSignup } from '../../features/newsletter/newsletter-signup';
import { paths } from '../../config/paths';
import { useDocumentHead } from '../../lib/document-head';
import { useSiteName } from '../../lib/site-name';
import { formatDate } from '../../lib/format-date';
import { useSiteData } from '../../lib/site-data';
import { theNewsletterOf } from '../../../../contract/newsletter-name';

/** /newsletter: every issue, newest first, and the sign-up. */
export function NewsletterArchive() {
  const siteName = useSiteName();
  const { newsletters = [] } = useSiteData();
  const description = `Every issue of ${theNewsletterOf(siteName)}. Members get their own issues too.`;
  useDocumentHead('Newsletter', description);
  return (
    <>
      <PageMasthead
        eyebrow="Newsletter"
        title={theNewsletterOf(siteName, true)}
        lede={description}
      />
      <div className="page-body newsletter-archive">
        <NewsletterSignup heading="Get the next issue by mail" showArchiveLink={false} />
        <h2 className="newsletter-archive__heading">Past issues</h2>
        {newsletters.length === 0 ? (
          <p>No issues yet: the first one is on its way.</p>
        ) : (
          <ol className="newsletter-archive__list" role="list">
            {newsletters.map((issue) => (
              <li key={issue.slug} className="newsletter-archive__item">
                <p className="newsletter-archive__meta">
                  <time dateTime={issue.publishedAt}>{formatDate(issue.publishedAt)}</time>
                  {issue.membersOnly && <span className="members-badge">Members only</span>}
                </p>
                <h3>
                  <Link to={`${paths.newsletter}/${issue.slug}`}>{issue.title}</Link>
                </h3>
                <p>{issue.summary}</p>
              </li>
            ))}
          </ol>
        )}
      </div>
    </>
  );
}
