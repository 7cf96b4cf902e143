import { useParams } from '../../lib/router';
import { NewsletterArchive } from './newsletter-archive';
import { NewsletterIssue } from './newsletter-issue';

/**
 * /newsletter (the archive) and /newsletter/:slug (an issue): one route and one chunk, so the
 * first load's JavaScript names one lazy screen for both (tests/bench/client-size.ts).
 */
export default function NewsletterRoute() {
  const { slug } = useParams();
  return slug ? <NewsletterIssue slug={slug} /> : <NewsletterArchive />;
}
