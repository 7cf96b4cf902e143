import { topicPath } from '../../../../contract/topics';
import { PageMasthead } from '../../components/page-masthead';
import { useDocumentHead } from '../../lib/document-head';
import { Link } from '../../lib/router';
import { useSiteData } from '../../lib/site-data';

const DESCRIPTION = 'Every topic the articles and campaigns are tagged with, from A to Z.';

/** /topics: every topic, with how many posts carry it. */
export default function TopicsRoute() {
  const { topics = [] } = useSiteData();
  useDocumentHead('Topics', DESCRIPTION);
  return (
    <>
      <PageMasthead eyebrow="Browse" title="Topics" lede={DESCRIPTION} />
      <div className="page-body">
        {topics.length === 0 ? (
          <p>No topics yet: they appear as posts are tagged.</p>
        ) : (
          <ul className="link-list" role="list">
            {topics.map((topic) => (
              <li key={topic.slug}>
                <Link to={topicPath(topic.slug)}>
                  {topic.name}{' '}
                  <span className="topic-list__count">
                    {topic.count}
                    <span className="visually-hidden"> {topic.count === 1 ? 'post' : 'posts'}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
